// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const NODE = (await new Deno.Command("sh", {
  args: ["-c", "command -v node"],
  stdout: "piped",
}).output()).stdout;
const node = new TextDecoder().decode(NODE).trim();

Deno.test({
  name:
    "the bundle runs a gated wave on Node too (no Deno API in shipped code)",
}, async () => {
  // node is on every machine the README's commands run on (npx needs it).
  if (node === "") throw new Error("node is not on PATH");
  // Bundled here from the sources under test, never a bundle a build left.
  await using dir = await tempDir();
  const bundle = `${dir.path}/chant-wave.mjs`;
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--output", bundle, "cli.ts"],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  expect(new TextDecoder().decode(bundled.stderr)).toBe("");
  expect(bundled.code).toBe(0);
  await using r = await rollout(
    specOf([{ name: "dev", gate: "always", runs: ["a", "b"] }]),
  );
  const run = async (...args: string[]) => {
    const { code, stderr } = await new Deno.Command(node, {
      args: [bundle, ...args],
      cwd: r.path,
      stdout: "null",
      stderr: "piped",
    })
      .output();
    return { code, stderr: new TextDecoder().decode(stderr) };
  };
  const waiting = await run("run", ...SPEC, "--wave", "1");
  expect(waiting.code).toBe(3);
  const approve = waiting.stderr.match(/^then approve: chant-wave (.+)$/m)![1]
    .split(" ");
  expect((await run(...approve, "--by", "ann")).code).toBe(0);
  const applied = await run("run", ...SPEC, "--wave", "1");
  expect(applied.code).toBe(0);
  expect(await r.applied()).toEqual(["a", "b"]);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";
import { exampleFiles, withChanges } from "../_helpers/tenants.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const NODE = (await new Deno.Command("sh", {
  args: ["-c", "command -v node"],
  stdout: "piped",
}).output()).stdout;
const node = new TextDecoder().decode(NODE).trim();

/** Bundles the sources under test (never a bundle a build left) to `path`. */
async function bundle(path: string): Promise<void> {
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--output", path, "cli.ts"],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  expect(new TextDecoder().decode(bundled.stderr)).toBe("");
  expect(bundled.code).toBe(0);
}

Deno.test({
  name:
    "the bundle runs a gated wave on Node too (no Deno API in shipped code)",
}, async () => {
  // node is on every machine the README's commands run on (npx needs it).
  if (node === "") throw new Error("node is not on PATH");
  await using dir = await tempDir();
  const path = `${dir.path}/chant-wave.mjs`;
  await bundle(path);
  await using r = await rollout(
    specOf([{ name: "dev", gate: "always", runs: ["a", "b"] }]),
  );
  const run = async (...args: string[]) => {
    const { code, stderr } = await new Deno.Command(node, {
      args: [path, ...args],
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

Deno.test("the bundle reads SQL with PostgreSQL's parser on Node too (its WebAssembly is in the bundle)", async () => {
  if (node === "") throw new Error("node is not on PATH");
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_n"]);
  await using dir = await tempDir();
  const path = `${dir.path}/chant-wave.mjs`;
  await bundle(path);
  const files = await exampleFiles();
  await using repo = await tempRepo({
    ...files,
    ...withChanges(files["db/sqitch.plan"], [{
      name: "drop_note",
      requires: ["accounts"],
      deploy: "ALTER TABLE accounts DROP COLUMN note;\n",
    }]),
  });
  const out = await new Deno.Command(node, {
    args: [path, "plan-file", "sqitch", "db", "db:pg:tenant_n", "plan.json"],
    cwd: repo.path,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin", ...pg.env },
    stdout: "null",
    stderr: "piped",
  }).output();
  expect(new TextDecoder().decode(out.stderr)).toBe(
    'wrote "plan.json": 3 changes to deploy; destructive: drop_note (ALTER TABLE … DROP COLUMN, line 1: "ALTER TABLE accounts DROP COLUMN note")\n',
  );
  expect(out.code).toBe(0);
});

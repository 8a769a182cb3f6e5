// End to end: a bug in a reader of untrusted input (a TypeError where the input
// reader would throw its ShapeError) is an internal error, exit 1 with the
// "internal error" headline and the CHANT_WAVE_DEBUG hint, never "bad plan
// file" (STYLE.md, "One reader for what crossed a boundary"). The bug is put in
// a copy of the sources, bundled and run on Node the way portability_test runs
// the bundle; the same plan file through the real binary is read.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { errorLines, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const NODE = new TextDecoder().decode(
  (await new Deno.Command("sh", {
    args: ["-c", "command -v node"],
    stdout: "piped",
  }).output()).stdout,
).trim();

/** The plan-file reader's first line, and the bug put in front of it. */
const READ_PLAN = "function readPlan(plan: JsonReader): PlanFile {\n";
const BUG =
  "  (plan.value as { missing: { field: string } }).missing.field.trim();\n";

/** Bundles a copy of the sources whose plan-file reader has the bug. */
async function buggyBundle(dir: string): Promise<string> {
  for (const part of ["cli.ts", "deno.json", "deno.lock", "src", "types"]) {
    const cp = await new Deno.Command("cp", {
      args: ["-R", `${ROOT}${part}`, `${dir}/${part}`],
    }).output();
    expect(cp.code).toBe(0);
  }
  const file = `${dir}/src/plan/plan_file.ts`;
  const text = await Deno.readTextFile(file);
  expect(text).toContain(READ_PLAN);
  await Deno.writeTextFile(file, text.replace(READ_PLAN, READ_PLAN + BUG));
  const bundle = `${dir}/chant-wave.mjs`;
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--output", bundle, "cli.ts"],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  expect(new TextDecoder().decode(bundled.stderr)).toBe("");
  expect(bundled.code).toBe(0);
  return bundle;
}

Deno.test("a bug in the plan-file reader is an internal error, not a bad plan file", async (t) => {
  if (NODE === "") throw new Error("node is not on PATH");
  await using dir = await tempDir();
  const bundle = await buggyBundle(dir.path);
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["a"] }]),
  );
  await t.step(
    "bad input through the binary: the run fails to plan",
    async () => {
      await r.control("a", "plan-raw", '{"planDigest":"sha256:abc"}');
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('failed: plan file of "a" at ');
      expect(out.stderr).not.toContain("internal error");
      await r.uncontrol("a", "plan-raw");
    },
  );
  const buggy = async (env: string[] = []) => {
    const { code, stderr } = await new Deno.Command("/usr/bin/env", {
      args: ["-i", "PATH=/usr/bin:/bin", ...env, NODE, bundle, ...[
        "run",
        ...SPEC,
        "--wave",
        "1",
      ]],
      cwd: r.path,
      stdout: "null",
      stderr: "piped",
    }).output();
    return { code, stderr: new TextDecoder().decode(stderr) };
  };
  await t.step(
    "a good plan file through the buggy reader: an internal error",
    async () => {
      const out = await buggy();
      expect(out.code).toBe(1);
      expect(errorLines(out.stderr)).toEqual([
        "error: internal error: Cannot read properties of undefined (reading 'field')",
      ]);
      expect(out.stderr).toContain(
        "  set CHANT_WAVE_DEBUG=1 for a stack trace\n",
      );
      expect(out.stderr).not.toContain("plan file of");
      expect(out.stderr).not.toMatch(/^ {4}at /m);
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step("CHANT_WAVE_DEBUG=1 shows where the reader broke", async () => {
    const out = await buggy(["CHANT_WAVE_DEBUG=1"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^TypeError: Cannot read properties of undefined/m,
    );
    expect(out.stderr).toMatch(/^ {4}at readPlan\d*\b/m);
  });
});

// End to end through the binary: replans (SPEC.md §11). An apply that exits 75
// asks for the wave to be planned again: the job plans and decides again, the
// §10 coverage rules hold in every pass, a plan applied in an earlier pass is
// not applied again, and the 11th request fails the job.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

/** How many lines of `stderr` are exactly `line`. */
function count(stderr: string, line: string): number {
  return stderr.split("\n").filter((l) => l === line).length;
}

Deno.test("an apply that exits 75 twice and then 0: three plans, one apply in each", async () => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["a", "b"] }]),
  );
  await r.control("a", "apply-replan", "2");
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
  expect(out.code).toBe(0);
  expect(count(out.stderr, "[plan] a | planning a")).toBe(3);
  expect(count(out.stderr, "[apply] a | applying a")).toBe(3);
  expect(out.stderr).toContain('wave 1 "dev": plan 2\n');
  expect(out.stderr).toContain('wave 1 "dev": plan 3\n');
  // b applied in the first pass; its plan did not change, so it applies once.
  expect(count(out.stderr, "[apply] b | applying b")).toBe(1);
  expect(out.stderr).toContain("skipped: b: already applied\n");
  expect(await r.applied()).toEqual(["b", "a"]);
  const result = JSON.parse(out.stdout);
  expect([result.exitCode, result.applied, result.failed]).toEqual([0, [
    "b",
    "a",
  ], []]);
});

Deno.test("under an approval, each pass whose plans it covers applies again", async () => {
  await using r = await rollout(specOf([{ name: "dev", runs: ["a"] }]));
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(3);
  expect((await r.run(approveLine(first.stderr))).code).toBe(0);
  await r.control("a", "apply-replan", "2");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(count(out.stderr, "[plan] a | planning a")).toBe(3);
  expect(count(out.stderr, "[apply] a | applying a")).toBe(3);
  expect(await r.applied()).toEqual(["a"]);
  const outcomes = (await r.records("tf-wave-1"))
    .filter((record) => record.kind === "run-outcome")
    .map((record) =>
      (record.runs as { outcome: string; attempt: number }[]).map((run) =>
        `${run.attempt}:${run.outcome}`
      ).join()
    );
  expect(outcomes).toEqual(["1:failed", "2:failed", "3:ok"]);
});

Deno.test("a new plan the approval does not cover waits", async () => {
  await using r = await rollout(specOf([{ name: "dev", runs: ["a"] }]));
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect((await r.run(approveLine(first.stderr))).code).toBe(0);
  await r.control("a", "apply-replan", "1");
  await r.control("a", "replan-desire", "moved");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain('wave 1 "dev": plan 2\n');
  expect(out.stderr).toMatch(
    /^then approve: chant-wave approve tf tf-wave-1 --plan sha256:[0-9a-f]{64}$/m,
  );
  expect(count(out.stderr, "[apply] a | applying a")).toBe(1);
  expect(await r.applied()).toEqual([]);
});

Deno.test("the 11th replan request fails the job", async () => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["a"] }]),
  );
  await r.control("a", "apply-replan", "11");
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
  expect(out.code).toBe(1);
  expect(count(out.stderr, "[plan] a | planning a")).toBe(11);
  expect(out.stderr).toContain('wave 1 "dev": plan 11\n');
  expect(out.stderr).not.toContain('wave 1 "dev": plan 12\n');
  expect(errorLines(out.stderr)).toEqual([
    'error: wave 1 "dev": a asked for plan 12, but a job plans a wave again at most 10 times',
    "error: 1 run failed to apply",
  ]);
  expect(JSON.parse(out.stdout).failed).toEqual(["a"]);
  expect(await r.applied()).toEqual([]);
});

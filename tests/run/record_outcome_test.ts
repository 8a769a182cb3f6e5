// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { memoryWriter } from "../../src/console/writer.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import { shareOutcome } from "../../src/run/record_outcome.ts";
import type { RunJobInput } from "../../src/run/select_job.ts";

const INPUT = {
  specFile: "waves.json",
  selection: { wave: { k: 2 } },
} as RunJobInput;

const RESULT: JobResult = {
  exitCode: 0,
  wave: 2,
  job: { kind: "share", share: 1 },
  applied: ["a"],
  failed: [],
  moved: [],
  untried: [],
  skipped: [],
};

Deno.test("shareOutcome() is 1 when a run failed, else 4 when a plan moved, else 0", async (t) => {
  await t.step("a failed run", () => {
    const stderr = memoryWriter();
    const done = shareOutcome(
      { ...RESULT, failed: ["b", "c"], moved: ["d"] },
      INPUT,
      { stderr, env: {} },
    );
    expect(done.exitCode).toBe(1);
    expect(stderr.lines()).toEqual(["error: 2 runs failed: b, c"]);
  });
  await t.step("a moved plan", () => {
    const stderr = memoryWriter();
    const done = shareOutcome({ ...RESULT, moved: ["d"] }, INPUT, {
      stderr,
      env: {},
    });
    expect(done.exitCode).toBe(4);
    expect(stderr.lines()).toEqual([
      "error: refused 1 run whose plan moved since wave 2 was decided: d",
      "then decide again (it plans the moved runs afresh, and waits for an approval if they need one): chant-wave run --spec waves.json --wave 2 --decide",
    ]);
  });
  await t.step("all applied", () => {
    const stderr = memoryWriter();
    expect(shareOutcome(RESULT, INPUT, { stderr, env: {} }).exitCode).toBe(0);
    expect(stderr.lines()).toEqual([]);
  });
});

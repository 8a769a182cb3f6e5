// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { memoryWriter } from "../../src/console/writer.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import {
  failedNextSteps,
  outcomeJobOf,
  shareOutcome,
} from "../../src/run/record_outcome.ts";
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
    expect(stderr.lines()).toEqual([
      "error: 2 runs failed: b, c",
      "then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 2",
    ]);
  });
  await t.step("a failed run of a group job under an approval", () => {
    const stderr = memoryWriter();
    const group = {
      ...INPUT,
      selection: { wave: { k: 3 }, group: { name: "us" }, share: 2 },
      ledgerArg: "git",
    } as RunJobInput;
    shareOutcome(
      {
        ...RESULT,
        failed: ["us-07"],
        decision: { status: "approved" } as JobResult["decision"],
      },
      group,
      { stderr, env: {} },
    );
    expect(stderr.lines()).toEqual([
      "error: 1 run failed: us-07",
      "then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 3 --group us --share 2 --ledger git",
      "the approval still covers us-07 while its plan stays the same; what applied does not apply again",
    ]);
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

Deno.test("outcomeJobOf() names a deciding job apart from a whole-wave job", () => {
  expect(outcomeJobOf({ kind: "wave" })).toEqual({ kind: "wave" });
  expect(outcomeJobOf({ kind: "decide" })).toEqual({ kind: "decide" });
  expect(outcomeJobOf({ kind: "share", share: 2 })).toEqual({
    kind: "share",
    share: 2,
  });
});

Deno.test("failedNextSteps() runs a deciding job again with --decide", () => {
  expect(
    failedNextSteps(
      { specFile: "waves.json", selection: { wave: { k: 3 }, kind: "decide" } },
      { failed: ["eu-3"] },
    ),
  ).toEqual([
    "then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 3 --decide",
  ]);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { memoryWriter } from "../../src/console/writer.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import {
  afterPass,
  firstPass,
  MAX_REPLANS,
  type Pass,
  passApplied,
  type PassEnd,
  passRuns,
} from "../../src/run/replan_loop.ts";
import type { PlannedRun } from "../../src/run/run_outcomes.ts";

const WAVE = { k: 1, name: "dev" };
const D = (n: number) => `sha256:${String(n).repeat(64)}`;

function planned(target: string, digest: string, empty = false): PlannedRun {
  return {
    target,
    run: { target, op: "x" },
    planPath: `p/${target}`,
    plan: { planDigest: digest, destructive: false, empty },
  };
}

const RESULT: JobResult = {
  exitCode: 0,
  wave: 1,
  job: { kind: "wave" },
  applied: [],
  failed: [],
  moved: [],
  untried: [],
  skipped: [],
};

function applied(
  targets: string[],
  replan: string[],
  failed: string[] = [],
): PassEnd {
  return {
    end: "applied",
    result: { ...RESULT, applied: targets, failed },
    replan,
    members: [...targets, ...replan, ...failed].map((target, i) => ({
      target,
      planDigest: D(i + 1),
      op: "x",
    })),
  };
}

Deno.test("afterPass() ends the job unless an apply asks for a new plan", async (t) => {
  await t.step("a stop ends it as it is", () => {
    const log = memoryWriter();
    const stop: PassEnd = { end: "stop", result: { ...RESULT, exitCode: 3 } };
    expect(afterPass(firstPass(), stop, WAVE, log)).toEqual({ end: stop });
    expect(log.lines()).toEqual([]);
  });
  await t.step("no replan asked: the end, nothing logged", () => {
    const log = memoryWriter();
    const end = applied(["a"], []);
    expect(afterPass(firstPass(), end, WAVE, log)).toEqual({ end });
    expect(log.lines()).toEqual([]);
  });
  await t.step("a replan asked: the next pass knows what applied", () => {
    const log = memoryWriter();
    const next = afterPass(firstPass(), applied(["a"], ["b"]), WAVE, log);
    expect(next).toEqual({
      next: { n: 2, appliedInJob: new Map([["a", D(1)]]), earlier: ["a"] },
    });
    expect(log.lines()).toEqual(['wave 1 "dev": plan 2']);
  });
  await t.step("the last pass's end lists earlier passes' runs first", () => {
    const pass: Pass = {
      n: 2,
      appliedInJob: new Map([["a", D(1)]]),
      earlier: ["a"],
    };
    const end = applied(["b"], []);
    const last = afterPass(
      pass,
      {
        ...end,
        result: { ...end.result, skipped: [{ target: "a", reason: "x" }] },
      },
      WAVE,
      memoryWriter(),
    );
    expect("end" in last && last.end.result.applied).toEqual(["a", "b"]);
    expect("end" in last && last.end.result.skipped).toEqual([]);
  });
  await t.step("a replan while other runs failed: they count as failed", () => {
    const log = memoryWriter();
    const last = afterPass(firstPass(), applied([], ["b"], ["c"]), WAVE, log);
    expect("end" in last && last.end.result.failed).toEqual(["c", "b"]);
    expect(log.lines()).toEqual([
      'error: wave 1 "dev": b asked for plan 2, but other runs failed, so the wave is not planned again',
    ]);
  });
  await t.step(`the ${MAX_REPLANS + 1}th replan fails the job`, () => {
    const log = memoryWriter();
    const pass = { ...firstPass(), n: MAX_REPLANS + 1 };
    const last = afterPass(pass, applied([], ["b"]), WAVE, log);
    expect("end" in last && last.end.result.failed).toEqual(["b"]);
    expect("end" in last && last.end.end === "applied" && last.end.replan)
      .toEqual([]);
    expect(log.lines()).toEqual([
      `error: wave 1 "dev": b asked for plan ${
        MAX_REPLANS + 2
      }, but a job plans a wave again at most ${MAX_REPLANS} times`,
    ]);
  });
});

Deno.test("passRuns() sorts a pass's plans: applied in an earlier pass, empty, to apply", () => {
  const pass = { appliedInJob: new Map([["a", D(1)], ["b", D(9)]]) };
  const sorted = passRuns(pass, [
    planned("a", D(1)),
    planned("b", D(2)),
    planned("c", D(3), true),
    planned("d", D(4), true),
  ], new Set(["d"]));
  expect(sorted.earlier).toEqual([{ target: "a", reason: "already applied" }]);
  expect(sorted.fresh.map((r) => r.target)).toEqual(["b", "c", "d"]);
  expect(sorted.runs.map((r) => r.target)).toEqual(["b"]);
  expect(sorted.empty).toEqual([
    { target: "c", reason: "no changes" },
    { target: "d", reason: "already applied" },
  ]);
});

Deno.test("passApplied() adds the apply stage's outcome to the job's result and logs the rest", () => {
  const log = memoryWriter();
  const end = passApplied(
    { ...RESULT, failed: ["x"], failures: [{ target: "x", message: "m" }] },
    {
      applied: ["b"],
      failed: [{ target: "c", message: "c failed", tail: [] }],
      untried: ["d"],
      replan: ["e"],
      moved: [{ target: "f", message: "f moved", tail: [] }],
      skipped: [{ target: "g", reason: "no changes" }],
    },
    { earlier: [{ target: "a", reason: "already applied" }], members: [] },
    log,
  );
  expect(log.lines()).toEqual([
    "skipped: a: already applied",
    "e: its apply asks for a new plan (exit 75)",
  ]);
  expect(end).toMatchObject({
    end: "applied",
    replan: ["e"],
    result: {
      applied: ["b"],
      failed: ["x", "c"],
      moved: ["f"],
      untried: ["d"],
      failures: [
        { target: "x", message: "m" },
        { target: "c", message: "c failed" },
      ],
      skipped: [
        { target: "a", reason: "already applied" },
        { target: "g", reason: "no changes" },
      ],
    },
  });
});

/**
 * Replans (SPEC.md §11): an apply command that exits 75 asks for the wave to be
 * planned again, so a job runs its wave in passes (hooks, plan, hooks, decide,
 * hooks, apply) until no apply asks for another, at most 10 replans; the 11th
 * request fails the job. A plan applied in an earlier pass of the job is not
 * applied again; the §10 coverage rules hold in every pass, so a plan the
 * approval does not cover waits.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { DecisionMember } from "../jobs/decision.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { WaveJob } from "./wave_job.ts";

/** How many times a job plans a wave again at most. */
export const MAX_REPLANS = 10;

/** How a pass ended: the job stops there, or its apply stage ran. */
export type PassEnd =
  | { end: "stop"; result: JobResult }
  | {
    end: "applied";
    result: JobResult;
    /** Targets whose apply asked for a new plan. */
    replan: string[];
    /** The pass's plans, for the after-apply hooks' `{plans}`. */
    members: DecisionMember[];
  };

/** Plans applied in earlier passes of the job: target → plan digest. */
export type AppliedInJob = Map<string, string>;

/**
 * Runs passes of a wave until one needs no new plan.
 * @param job The wave job (its hooks start each pass afresh).
 * @param pass Runs one pass; told what earlier passes applied, and records what
 *   this one applies there.
 * @returns The last pass's end, with every run applied in any pass; when an apply
 *   asked for an 11th new plan, or asked while other runs failed, those runs count
 *   as failed.
 */
export async function runPasses(
  job: WaveJob,
  pass: (applied: AppliedInJob) => Promise<PassEnd>,
): Promise<PassEnd> {
  const { wave } = job;
  const log = lineLog(job.io.stderr);
  const appliedInJob: AppliedInJob = new Map();
  let applied: string[] = [];
  for (let n = 1;; n++) {
    if (n > 1) log(`wave ${wave.k} "${wave.name}": plan ${n}`);
    await job.hooks.startPass();
    const end = withEarlier(await pass(appliedInJob), applied);
    if (end.end === "stop" || end.replan.length === 0) return end;
    applied = end.result.applied;
    const stop = end.result.failed.length
      ? "other runs failed, so the wave is not planned again"
      : n > MAX_REPLANS
      ? `a job plans a wave again at most ${MAX_REPLANS} times`
      : undefined;
    if (stop === undefined) continue;
    log(
      `error: wave ${wave.k} "${wave.name}": ${
        end.replan.join(", ")
      } asked for plan ${n + 1}, but ${stop}`,
    );
    const failed = [...end.result.failed, ...end.replan];
    return { ...end, result: { ...end.result, failed }, replan: [] };
  }
}

/** A pass's end with the runs earlier passes applied put first. */
function withEarlier(end: PassEnd, earlier: readonly string[]): PassEnd {
  if (earlier.length === 0) return end;
  const now = new Set(end.result.applied);
  const applied = [
    ...earlier.filter((target) => !now.has(target)),
    ...end.result.applied,
  ];
  const done = new Set(applied);
  const skipped = end.result.skipped.filter((s) => !done.has(s.target));
  return { ...end, result: { ...end.result, applied, skipped } };
}

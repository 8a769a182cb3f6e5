/**
 * The end-of-job summary: one row per run of the job — target, plan summary,
 * outcome, how long its apply took — so the last screen of a long job says what
 * happened to each run. Pure: the job's runs and outcomes in, lines out.
 * @module
 */

import { formatDuration } from "../spec/duration.ts";
import type { ApplyOutcome, PlannedRun } from "./run_outcomes.ts";
import type { SkippedRun } from "./job_result.ts";

/** What the summary needs of a job's apply stage. */
export interface SummaryInput {
  /** The runs the stage was given. */
  planned: readonly PlannedRun[];
  outcome: ApplyOutcome & { skipped: readonly SkippedRun[] };
  /** How long each applied or failed run took, by target. */
  durations: ReadonlyMap<string, number>;
}

/**
 * Lays out the summary rows: `target  plan  outcome  took`.
 * @param input The runs, their outcomes and durations.
 * @returns The table's lines, header first; none for a job with no runs.
 * @example
 * ```ts
 * summaryRows({ planned: [], outcome, durations: new Map() }); // []
 * ```
 */
export function summaryRows(input: SummaryInput): string[][] {
  const { planned, outcome, durations } = input;
  if (planned.length === 0) return [];
  const applied = new Set(outcome.applied);
  const failed = new Set(outcome.failed.map((f) => f.target));
  const untried = new Set(outcome.untried);
  const skipped = new Map(outcome.skipped.map((s) => [s.target, s.reason]));
  const rows = planned.map(({ target, plan }) => {
    const took = durations.get(target);
    const result = applied.has(target)
      ? "applied"
      : failed.has(target)
      ? "failed"
      : untried.has(target)
      ? "untried"
      : skipped.has(target)
      ? `skipped: ${skipped.get(target)}`
      : "not applied";
    return [
      target,
      plan.empty ? "no changes" : plan.summary ?? "changes",
      result,
      took === undefined ? "" : formatDuration(took),
    ];
  });
  return [["target", "plan", "outcome", "took"], ...rows];
}

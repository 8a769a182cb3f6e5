/**
 * The end-of-job summary: one row per run of the job — target, plan summary,
 * outcome, how long its apply took — so the last screen of a long job says what
 * happened to each run, those it refused (their plan moved) and those that
 * failed to plan included. Pure: the job's runs and outcomes in, lines out.
 * @module
 */

import { formatDuration } from "../spec/duration.ts";
import type { ApplyOutcome, PlannedRun } from "./run_outcomes.ts";
import type { SkippedRun } from "../jobs/job_result.ts";

/** A plan as the table shows it: `no changes`, its summary, or `changes`. */
function planText(plan: PlannedRun["plan"]): string {
  return plan.empty ? "no changes" : plan.summary ?? "changes";
}

/** What the summary needs of a job's apply stage. */
export interface SummaryInput {
  /** The runs the stage was given. */
  planned: readonly PlannedRun[];
  outcome: ApplyOutcome & { skipped: readonly SkippedRun[] };
  /** How long each applied or failed run took, by target. */
  durations: ReadonlyMap<string, number>;
  /** The job's runs refused because their plan moved since the decision. */
  moved?: readonly PlannedRun[];
  /** The job's runs that failed to plan, by target. */
  unplanned?: readonly string[];
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
  const { planned, outcome, durations, moved = [], unplanned = [] } = input;
  if (planned.length + moved.length + unplanned.length === 0) return [];
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
      planText(plan),
      result,
      took === undefined ? "" : formatDuration(took),
    ];
  });
  for (const { target, plan } of moved) {
    rows.push([target, planText(plan), "refused: plan moved", ""]);
  }
  for (const target of unplanned) {
    rows.push([target, "-", "failed to plan", ""]);
  }
  rows.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return [["target", "plan", "outcome", "took"], ...rows];
}

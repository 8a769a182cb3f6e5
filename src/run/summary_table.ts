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

/** How long each applied or failed run took, by target (a `Map` will do). */
export interface RunDurations {
  /** The milliseconds `target` took, if it ran. */
  get(target: string): number | undefined;
}

/** What the summary needs of a job's apply stage. */
export interface SummaryInput {
  /** The runs the stage was given. */
  planned: readonly PlannedRun[];
  outcome: ApplyOutcome & { skipped: readonly SkippedRun[] };
  /** How long each applied or failed run took, by target. */
  durations: RunDurations;
  /** The job's runs refused because their plan moved since the decision. */
  moved?: readonly PlannedRun[];
  /** The job's runs that failed to plan, by target. */
  unplanned?: readonly string[];
}

const HEADER = ["target", "plan", "outcome", "took"];

/** The summary's rows, and its columns' widths. */
export interface SummaryTable extends Iterable<string[]> {
  /** The columns' widths, header included, found without making the rows. */
  widths(): number[];
}

/**
 * Lays out the summary rows: `target  plan  outcome  took`, sorted by target.
 * The rows are made as they are read, again at each read, and the widths
 * without them, so a job of 30,000 runs never holds them all.
 * @param input The runs, their outcomes and durations.
 * @returns The table's rows, header first; none for a job with no runs.
 * @example
 * ```ts
 * [...summaryRows({ planned: [], outcome, durations: new Map() })]; // []
 * ```
 */
export function summaryRows(input: SummaryInput): SummaryTable {
  const { planned, durations, moved = [], unplanned = [] } = input;
  const total = planned.length + moved.length + unplanned.length;
  if (total === 0) return { *[Symbol.iterator]() {}, widths: () => [] };
  const outcomes = outcomeByTarget(input.outcome);
  const tookText = sharedTexts(formatDuration);
  // Runs are numbered planned, then refused, then unplanned.
  const refusedFrom = planned.length;
  const unplannedFrom = refusedFrom + moved.length;
  const columns = [
    (i: number) =>
      i >= unplannedFrom
        ? unplanned[i - unplannedFrom]
        : (i >= refusedFrom ? moved[i - refusedFrom] : planned[i]).target,
    (i: number) =>
      i >= unplannedFrom ? "-" : planText(
        (i >= refusedFrom ? moved[i - refusedFrom] : planned[i]).plan,
      ),
    (i: number) =>
      i >= unplannedFrom
        ? "failed to plan"
        : i >= refusedFrom
        ? "refused: plan moved"
        : outcomes[planned[i].target] ?? "not applied",
    (i: number) => {
      const took = i < refusedFrom
        ? durations.get(planned[i].target)
        : undefined;
      return took === undefined ? "" : tookText(took);
    },
  ];
  const order = sortedOrder(total, columns[0]);
  return {
    *[Symbol.iterator]() {
      yield HEADER;
      for (const i of order) yield columns.map((cell) => cell(i));
    },
    widths() {
      const widths = HEADER.map((title) => title.length);
      for (let i = 0; i < total; i++) {
        columns.forEach((cell, c) => {
          widths[c] = Math.max(widths[c], cell(i).length);
        });
      }
      return widths;
    },
  };
}

/**
 * A duration's text, one per whole second: a few distinct texts for a job's
 * runs, not one a row.
 */
function sharedTexts(format: (ms: number) => string): (ms: number) => string {
  const texts = new Map<number, string>();
  return (ms) => {
    const seconds = Math.ceil(ms / 1000);
    let text = texts.get(seconds);
    if (text === undefined) {
      text = format(ms);
      texts.set(seconds, text);
    }
    return text;
  };
}

/**
 * Each run's outcome as the table says it; a null-prototype object rather
 * than sets and a map, a tenth of their size under bun.
 */
function outcomeByTarget(
  outcome: SummaryInput["outcome"],
): Record<string, string> {
  const said: Record<string, string> = Object.create(null);
  // The strongest last: applied over failed over untried over skipped.
  for (const { target, reason } of outcome.skipped) {
    said[target] = `skipped: ${reason}`;
  }
  for (const target of outcome.untried) said[target] = "untried";
  for (const { target } of outcome.failed) said[target] = "failed";
  for (const target of outcome.applied) said[target] = "applied";
  return said;
}

/**
 * The indices `0..count` sorted by their target (UTF-16 order), ties in index
 * order; the indices themselves when they are in order already (a job's
 * planned runs are, and usually nothing else is in the table).
 */
function sortedOrder(
  count: number,
  targetOf: (i: number) => string,
): Iterable<number> {
  let sorted = true;
  for (let i = 1; i < count && sorted; i++) {
    sorted = targetOf(i - 1) <= targetOf(i);
  }
  if (sorted) {
    return {
      *[Symbol.iterator]() {
        for (let i = 0; i < count; i++) yield i;
      },
    };
  }
  const targets = Array.from({ length: count }, (_, i) => targetOf(i));
  return Uint32Array.from(targets, (_, i) => i).sort((a, b) =>
    targets[a] < targets[b] ? -1 : targets[a] > targets[b] ? 1 : a - b
  );
}

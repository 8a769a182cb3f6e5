/**
 * When a wave completed a revision, by what a reader can trust, and whether a
 * soak after it has passed (SPEC.md §19, §4.12). A record's own `timestamp` is
 * the writer's word, so the time a record reached the ledger is taken as the
 * latest of its timestamp, the timestamp of every record the ledger holds
 * before it (its order: a record cannot have arrived before one that arrived
 * ahead of it), and the time the store itself saw it arrive when it keeps one
 * no process can set back (a directory ledger's kernel change time). Each of
 * them can only make the time later, so a skewed or forged timestamp makes a
 * soak longer, never shorter. The wave completed when the last of its
 * applying jobs recorded its newest outcome at the revision: a record can only
 * add a later one, so a copy of an outcome dated early moves nothing, and a
 * re-run of a job starts the soak again. Pure: records and times in.
 * @module
 */

import type { LedgerRecord, WaveOutcomeRecord } from "../gate/records.ts";
import { sameJob, waveCompletion, type WaveShape } from "./wave_completion.ts";

/**
 * The time each record reached the ledger at the earliest, by the ledger's
 * order and, when the store keeps one, its own arrival time.
 * @param records The gate's records, oldest first in ledger order.
 * @param arrived The store's arrival times of records, when it keeps them.
 * @returns Record → milliseconds since the Unix epoch.
 * @example
 * ```ts
 * arrivalTimes([], undefined).size; // 0
 * ```
 */
export function arrivalTimes(
  records: readonly LedgerRecord[],
  arrived?: ReadonlyMap<LedgerRecord, number>,
): Map<LedgerRecord, number> {
  const times = new Map<LedgerRecord, number>();
  let latest = -Infinity;
  for (const record of records) {
    const stated = Date.parse(record.timestamp);
    if (Number.isFinite(stated) && stated > latest) latest = stated;
    times.set(record, Math.max(latest, arrived?.get(record) ?? -Infinity));
  }
  return times;
}

/**
 * When `wave` completed `head`, by {@linkcode arrivalTimes}: the latest, over
 * its applying jobs whose newest outcome at `head` completed it, of that
 * outcome's time.
 * @param records The wave's gate records, oldest first in ledger order.
 * @param wave The wave's number, shares and job groups.
 * @param head The commit (full sha).
 * @param arrived The store's arrival times, when it keeps them.
 * @returns Milliseconds since the Unix epoch, or `undefined` when the wave is
 *   not complete at `head`.
 * @example
 * ```ts
 * completedAt([], { k: 1, shares: 1 }, head); // undefined
 * ```
 */
export function completedAt(
  records: readonly LedgerRecord[],
  wave: WaveShape,
  head: string,
  arrived?: ReadonlyMap<LedgerRecord, number>,
): number | undefined {
  if (!waveCompletion(records, wave, head).complete) return undefined;
  const times = arrivalTimes(records, arrived);
  const outcomes = records.filter((r): r is WaveOutcomeRecord =>
    r.kind === "wave-outcome" && r.wave === wave.k && r.head === head
  );
  const jobs: WaveOutcomeRecord["job"][] = [];
  for (const outcome of outcomes) {
    if (!jobs.some((job) => sameJob(job, outcome.job))) jobs.push(outcome.job);
  }
  let at: number | undefined;
  for (const job of jobs) {
    const newest = outcomes.findLast((r) => sameJob(r.job, job))!;
    if (newest.outcome === "failed") continue;
    const time = times.get(newest)!;
    if (at === undefined || time > at) at = time;
  }
  return at;
}

/** Whether a soak has passed, and when it does. */
export interface SoakLeft {
  /** How long ago the wave before completed, in milliseconds (0 or more). */
  ago: number;
  /** When the soak ends, milliseconds since the Unix epoch. */
  mayGoAt: number;
  /** Whether that is now or past. */
  passed: boolean;
}

/**
 * Measures a soak from a completion to the reader's clock.
 * @param completed When the wave before completed.
 * @param soakMs The soak, in milliseconds.
 * @param now The reader's clock.
 * @returns How long ago, when it ends and whether it has.
 * @example
 * ```ts
 * soakLeft(0, 7_200_000, 2_400_000); // { ago: 2400000, mayGoAt: 7200000, passed: false }
 * ```
 */
export function soakLeft(
  completed: number,
  soakMs: number,
  now: number,
): SoakLeft {
  const mayGoAt = completed + soakMs;
  return { ago: Math.max(0, now - completed), mayGoAt, passed: now >= mayGoAt };
}

/**
 * Whether a job that stopped until a time should be restarted (SPEC.md §19:
 * `resume` restarts a job waiting on its soak, or on a freeze window, once the
 * time has come), pure: the gate's newest `waiting` fact, unless a job of the
 * gate went on since (a pending fact, a claim or an outcome after it), judged
 * by the reader's clock. The restarted job judges the time again itself, so a
 * fact that names a wrong time only restarts a job too early or too late.
 * @module
 */

import type { LedgerRecord, WaitingRecord } from "../gate/records.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import { sayMoment } from "../say_time.ts";

/** What to do about a gate whose job waits until a time. */
export type TimedStep =
  /** The time has not come. */
  | { status: "not-yet"; waiting: WaitingRecord; reason: string }
  /** The time has come, but no CI job is named. */
  | { status: "no-job"; waiting: WaitingRecord; reason: string }
  /** The time has come: restart the job the locator names. */
  | { status: "restart"; waiting: WaitingRecord; locator: RunLocator };

/** Records a job of the gate writes once it went past its wait. */
const WENT_ON = new Set([
  "pending",
  "claim",
  "run-outcome",
  "wave-outcome",
  "out-of-order",
]);

/**
 * Decides what `resume` does about a gate's timed wait.
 * @param records The gate's records, oldest first.
 * @param now The reader's clock, milliseconds since the Unix epoch.
 * @returns The step, or `undefined` when no wait stands.
 * @example
 * ```ts
 * decideTimedResume([], Date.now()); // undefined
 * ```
 */
export function decideTimedResume(
  records: readonly LedgerRecord[],
  now: number,
): TimedStep | undefined {
  let i = records.length - 1;
  while (i >= 0 && records[i].kind !== "waiting") i--;
  if (i < 0) return undefined;
  const waiting = records[i] as WaitingRecord;
  if (records.slice(i + 1).some((r) => WENT_ON.has(r.kind))) return undefined;
  const until = Date.parse(waiting.until);
  if (now < until) {
    return {
      status: "not-yet",
      waiting,
      reason:
        `wave ${waiting.wave} waits for its ${waiting.why}: it may go at ${
          sayMoment(until, now)
        }`,
    };
  }
  if (waiting.locator === undefined) {
    return {
      status: "no-job",
      waiting,
      reason:
        `the ${waiting.why} has passed, but the wait names no CI job (recorded outside CI): run the wave again`,
    };
  }
  return { status: "restart", waiting, locator: waiting.locator };
}

/**
 * Screens a gate's records by date (SPEC.md §14, "screening fails closed"): a
 * record dated more than five minutes after the reader's clock is suspect (a
 * skewed or forged clock), and whether it counts depends on what it can do. A
 * record that can only make the gate stricter counts whatever its date; a
 * record that can let a wave go on is reported and does not count. Pure; both
 * ledgers call it on what they read.
 * @module
 */

import { MAX_CLOCK_SKEW_MS } from "../limits.ts";
import type { LedgerRecord } from "./records.ts";

/**
 * Whether a record can loosen anything: let an approval count, let a plan be
 * claimed again, or let a wave (or a hold on it) go on. Such records are
 * `approval`, `recorded-plans` (a review approves through them), a
 * `wave-outcome` that is not `failed` (the next wave may run), and a
 * `run-outcome` with a `failed` run (the plan may be claimed again). Every other
 * record only tightens or only tells: `expired` (a revoke), `claim` and a
 * `run-outcome` whose runs all applied (they spend plans), `pending` (its actor
 * may not approve, a hold waits on it), a `failed` wave outcome, `out-of-order`,
 * `folded` (what compaction moved out of the tip).
 * A record that does both is loosening, so it is the one left out: leaving out a
 * `run-outcome` with a failed run leaves its plans claimed, which is stricter
 * than either outcome.
 * @param record A record as read.
 * @returns `true` when counting it could let something go on that otherwise would not.
 * @example
 * ```ts
 * loosens(expiredRecord({ name: "tf", gate: "tf-wave-1" }, stamp)); // false
 * loosens(approvalRecord({ name: "tf", gate: "tf-wave-1", planDigest: d, by: "ann" }, stamp)); // true
 * ```
 */
export function loosens(record: LedgerRecord): boolean {
  switch (record.kind) {
    case "approval":
    case "recorded-plans":
      return true;
    case "wave-outcome":
      return record.outcome !== "failed";
    case "run-outcome":
      return record.runs.some((run) => run.outcome !== "ok");
    case "pending":
    case "expired":
    case "claim":
    case "out-of-order":
    case "folded":
      return false;
  }
}

/**
 * Screens records dated more than five minutes after `now`. The contract, kept
 * here for both ledgers:
 * - a loosening record ({@linkcode loosens}) so dated does not count: it is
 *   left out of `records`, listed in `future` (so `revoke` ends it by id) and
 *   reported in `problems`;
 * - any other record so dated counts, at the place its ledger's order gives it,
 *   and is reported too. A revoke from a fast clock therefore still ends the
 *   approvals it was meant to end (the ids it lists, and in the directory
 *   ledger every approval dated before it, including those given after it was
 *   written but before its date: they must be given again, which fails closed);
 *   a claim or an applied outcome from a fast clock still spends its plans.
 * - records dated in the past are not screened: an approval backdated before a
 *   revoke sorts before it in the directory ledger and is ended by it; in the
 *   git ledger records order by arrival, so no date moves one past a revoke.
 * @param read A gate's records and problems as read, in ledger order.
 * @param now The reader's clock, milliseconds since the Unix epoch.
 * @returns The records without the future-dated loosening ones (which are
 *   listed in `future`), and every future-dated record reported in `problems`.
 * @example
 * ```ts
 * screenRecords({ records: [], problems: [] }, Date.now()); // { records: [], problems: [] }
 * ```
 */
export function screenRecords(read: GateRecords, now: number): GateRecords {
  const limit = now + MAX_CLOCK_SKEW_MS;
  const ahead = read.records.filter((r) => Date.parse(r.timestamp) > limit);
  if (ahead.length === 0) return read;
  const future = ahead.filter(loosens);
  const dropped = new Set(future);
  return {
    records: read.records.filter((r) => !dropped.has(r)),
    ...(future.length ? { future } : {}),
    problems: [
      ...read.problems,
      ...ahead.map((r) =>
        `${r.kind} ${r.id} of gate "${r.gate}" is dated ${r.timestamp}, more than 5 minutes ahead of this clock; ${
          dropped.has(r)
            ? "it does not count"
            : "it counts, since it can only make the gate stricter"
        }`
      ),
    ],
  };
}

/** A gate's records as read, with the records that could not be read. */
export interface GateRecords {
  /** The gate's valid records, oldest first (ledger order). */
  records: LedgerRecord[];
  /** One line per malformed or unreadable record, naming it; never fatal. */
  problems: string[];
  /**
   * Valid records dated more than five minutes after the reader's clock: they do
   * not count (and are in `problems`), but `revoke` ends them by id.
   */
  future?: LedgerRecord[];
}

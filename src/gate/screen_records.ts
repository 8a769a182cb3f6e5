/**
 * Which of a gate's records a reader counts (SPEC.md §4.12, §14, "screening
 * fails closed"), and their order where time orders them (by timestamp, ties
 * by id: the directory ledger; the git ledger orders by arrival):
 *
 * - by date: a record dated more than five minutes after the reader's clock is
 *   suspect (a skewed or forged clock); one that can only make the gate
 *   stricter counts whatever its date, one that can let a wave go on is
 *   reported and does not count;
 * - by arrival: what reached the ledger after the job's mark (taken just
 *   before its first command of the change) does not count for that job when
 *   it loosens anything, unless the job wrote it; which records arrived late
 *   is the store's to tell (by kernel file time, by branch order);
 * - by what it binds: a sealed approval is what its seal signs (name, gate,
 *   digest, approver, time), not its record, so a copy of one under a new id
 *   and file (in `sealed` and `forge` modes the change's code may write the
 *   ledger) is that approval again: only the first is read, the later ones are
 *   reported. Unsealed approvals bind nothing but their record.
 *
 * Pure; the ledger applies it to what every store lists.
 * @module
 */

import { MAX_CLOCK_SKEW_MS } from "../limits.ts";
import type { ApprovalRecord, LedgerRecord, RecordKind } from "./records.ts";

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
    case "waiting":
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
  /**
   * When the store keeps one: the time each record reached the ledger at the
   * earliest (read with `arrival`).
   */
  arrived?: ReadonlyMap<LedgerRecord, number>;
}

/**
 * The kinds that only tighten: a revoke ends approvals, a claim takes a plan;
 * and a `folded` summary, which decides nothing (it names approvals a revoke
 * ended).
 */
const TIGHTENING: readonly RecordKind[] = ["expired", "claim", "folded"];

/**
 * Whether a record only tightens the gate (a revoke, a claim) or decides
 * nothing (a `folded` summary), so it counts for a job whenever it reached the
 * ledger.
 * @param record A record.
 * @returns `true` for `expired`, `claim` and `folded` records.
 * @example
 * ```ts
 * onlyTightens({ ...approval, kind: "approval" }); // false
 * ```
 */
export function onlyTightens(record: LedgerRecord): boolean {
  return TIGHTENING.includes(record.kind);
}

/**
 * Drops the records that reached the ledger after the job's mark and loosen
 * the gate, unless the job wrote them itself; each dropped one is reported.
 * @param read The gate's records and problems as read.
 * @param late The records the store says arrived after the mark.
 * @param own The ids of the records this job wrote.
 * @returns The records that count for the job, and the problems with one line
 *   per dropped record.
 * @example
 * ```ts
 * dropArrivedAfter({ records: [a], problems: [] }, new Set([a]), new Set());
 * // { records: [], problems: ['approval … reached the ledger after …'] }
 * ```
 */
export function dropArrivedAfter(
  read: GateRecords,
  late: ReadonlySet<LedgerRecord>,
  own: ReadonlySet<string>,
): GateRecords {
  const dropped = read.records.filter((record) =>
    late.has(record) && !onlyTightens(record) && !own.has(record.id)
  );
  if (dropped.length === 0) return read;
  const gone = new Set(dropped);
  return {
    ...read,
    records: read.records.filter((record) => !gone.has(record)),
    problems: [
      ...read.problems,
      ...dropped.map((r) =>
        `${r.kind} ${r.id} of gate "${r.gate}" reached the ledger after this ` +
        `job started its first command of the change; it does not count for ` +
        `this job`
      ),
    ],
  };
}

/** What one approval binds, whatever record carries it. */
function bound(record: ApprovalRecord): string {
  return JSON.stringify([record.planDigest, record.by, record.timestamp]);
}

/**
 * Leaves out every sealed approval that repeats an earlier one of the gate
 * (same digest, approver and signed time), reporting each in `problems`.
 * @param read A gate's records in ledger order, as screened.
 * @returns The records without the copies.
 * @example
 * ```ts
 * dropApprovalCopies({ records: [], problems: [] }); // { records: [], problems: [] }
 * ```
 */
export function dropApprovalCopies(read: GateRecords): GateRecords {
  const first = new Map<string, ApprovalRecord>();
  const copies: string[] = [];
  const records = read.records.filter((record) => {
    if (record.kind !== "approval" || record.seal === undefined) return true;
    const key = bound(record);
    const original = first.get(key);
    if (original === undefined) {
      first.set(key, record);
      return true;
    }
    if (original.id === record.id) return true;
    copies.push(
      `approval ${record.id} of gate "${record.gate}" repeats the sealed approval ${original.id} (the same digest, approver and signed time): it is that approval, not another, and does not count again`,
    );
    return false;
  });
  if (copies.length === 0) return read;
  return { ...read, records, problems: [...read.problems, ...copies] };
}

/**
 * Compares two records by time, then by id (UTF-16 code unit order).
 * @param a A record.
 * @param b Another record.
 * @returns Negative when `a` comes first, positive when `b` does, 0 when equal.
 * @example
 * ```ts
 * [b, a].sort(compareRecords); // oldest first
 * ```
 */
export function compareRecords(a: LedgerRecord, b: LedgerRecord): number {
  const byTime = Date.parse(a.timestamp) - Date.parse(b.timestamp);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Sorts records oldest first: by timestamp, ties by id.
 * @param records The records, in any order.
 * @returns A new array, oldest first (newest last).
 * @example
 * ```ts
 * sortRecords([
 *   { …, id: "b", timestamp: "2026-01-01T00:00:00.000Z" },
 *   { …, id: "a", timestamp: "2026-01-01T00:00:00.000Z" },
 * ]).map((r) => r.id); // ["a", "b"]
 * ```
 */
export function sortRecords<R extends LedgerRecord>(
  records: readonly R[],
): R[] {
  // Each timestamp parsed once, not at every comparison.
  const keyed = records.map((record) => ({
    record,
    ms: Date.parse(record.timestamp),
  }));
  keyed.sort((a, b) => {
    const byTime = a.ms - b.ms;
    if (byTime !== 0) return byTime;
    return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
  });
  return keyed.map((k) => k.record);
}

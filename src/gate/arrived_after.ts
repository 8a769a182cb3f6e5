/**
 * What the change's code writes does not approve it (SPEC.md §4.12, §14): of a
 * gate's records, those that reached the ledger after the job's mark (taken just
 * before the job's first command of the change) do not count for that job when
 * they loosen anything. Records that only tighten (revokes, claims) count
 * whatever their arrival, and so do the records this job wrote itself. Pure:
 * which records arrived late is the store's to tell (by kernel file time, by
 * branch order); this says which of them still count, and reports the rest.
 * @module
 */

import type { LedgerRecord, RecordKind } from "./records.ts";
import type { GateRecords } from "./screen_records.ts";

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

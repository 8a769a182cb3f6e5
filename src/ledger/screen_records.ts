/**
 * Drops records dated too far in the future (SPEC.md §14): a record more than
 * five minutes after the reader's clock does not count and is reported, so a
 * record written with a skewed (or forged) clock cannot sort after a revoke and
 * outlive it. Pure; both ledgers call it on what they read.
 * @module
 */

import { MAX_CLOCK_SKEW_MS } from "../limits.ts";
import type { GateRecords } from "./ledger_store.ts";

/**
 * Keeps the records dated at most five minutes after `now`; reports the others.
 * @param read A gate's records and problems as read.
 * @param now The reader's clock, milliseconds since the Unix epoch.
 * @returns The same records without the future-dated ones, which are listed in
 *   `future` and reported in `problems`.
 * @example
 * ```ts
 * screenRecords({ records: [], problems: [] }, Date.now()); // { records: [], problems: [] }
 * ```
 */
export function screenRecords(read: GateRecords, now: number): GateRecords {
  const limit = now + MAX_CLOCK_SKEW_MS;
  const future = read.records.filter((r) => Date.parse(r.timestamp) > limit);
  if (future.length === 0) return read;
  const ahead = new Set(future);
  return {
    records: read.records.filter((r) => !ahead.has(r)),
    future,
    problems: [
      ...read.problems,
      ...future.map((r) =>
        `${r.kind} ${r.id} of gate "${r.gate}" is dated ${r.timestamp}, more than 5 minutes ahead of this clock; it does not count`
      ),
    ],
  };
}

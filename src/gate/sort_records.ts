/**
 * The order of a gate's records in the directory ledger (SPEC.md §5.3): by
 * timestamp, ties by id. Pure. The git ledger orders by arrival on its branch
 * instead and does not use this.
 * @module
 */

import type { LedgerRecord } from "./records.ts";

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

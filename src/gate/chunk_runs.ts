/**
 * Splits a record that lists many plans (`claim`, `run-outcome`) into records
 * that each stay within the 64 KiB a reader accepts (SPEC.md §14), so a wave of
 * thousands of runs records its claims and outcomes in a few files. Pure.
 * @module
 */

import type { ClaimRecord, RunOutcomeRecord } from "./records.ts";

/** The most bytes one chunk's runs take, leaving room for the other fields. */
const CHUNK_BYTES = 48 * 1024;

/**
 * Splits `record` into records of at most ~48 KiB of runs each; the chunks' ids
 * are the record's id with `-<n>` added when there is more than one.
 * @param record A claim or run-outcome record.
 * @returns One record, or several that together list every run in order.
 * @example
 * ```ts
 * chunkRuns({ ...claim, runs: [] }).length; // 1
 * ```
 */
export function chunkRuns<R extends ClaimRecord | RunOutcomeRecord>(
  record: R,
): R[] {
  const chunks: R["runs"][] = [[]];
  let bytes = 0;
  for (const run of record.runs) {
    const size = JSON.stringify(run).length + 8;
    if (bytes + size > CHUNK_BYTES && chunks[chunks.length - 1].length > 0) {
      chunks.push([]);
      bytes = 0;
    }
    (chunks[chunks.length - 1] as unknown[]).push(run);
    bytes += size;
  }
  if (chunks.length === 1) return [record];
  return chunks.map((runs, i) => ({
    ...record,
    id: `${record.id}-${i}`,
    runs,
  }));
}

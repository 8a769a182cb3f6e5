/**
 * Whether a review still speaks for the plans (SPEC.md §13): the digest the
 * pull-request pipeline recorded for a wave at the reviewed head must equal the
 * digest the wave plans now, on the merged commit. Pure: records in, verdict out.
 * @module
 */

import type { LedgerRecord, RecordedPlansRecord } from "../ledger/records.ts";

/** What the recorded plans are checked against. */
export interface RecordedPlansQuery {
  /** The records under the `recorded-plans` gate of the spec, oldest first. */
  records: readonly LedgerRecord[];
  /** The pull request's number, for messages. */
  pullRequest: number;
  /** The reviewed head commit (full sha). */
  head: string;
  /** The wave's gate, `<gate>-wave-<k>`. */
  gate: string;
  /** The set digest the wave plans now. */
  digest: string;
}

/**
 * Checks the newest plans recorded at `head` for the wave of `gate` against the
 * digest planned now.
 * @param query The records, the pull request, its head, the gate and the digest.
 * @returns `undefined` when they agree, else the refusal reason: no recorded
 *   plans (at the head, or for the wave), or the plan moved after the review.
 * @example
 * ```ts
 * checkRecordedPlans({ records: [], pullRequest: 7, head, gate: "tf-wave-1", digest });
 * // "no recorded plans for #7 at its head 0123456789ab: its pipeline runs chant-wave run --record-plans"
 * ```
 */
export function checkRecordedPlans(
  query: RecordedPlansQuery,
): string | undefined {
  const { pullRequest, head, gate, digest } = query;
  const head12 = head.slice(0, 12);
  const recorded = query.records.findLast((
    record,
  ): record is RecordedPlansRecord =>
    record.kind === "recorded-plans" && record.head === head
  );
  if (recorded === undefined) {
    return `no recorded plans for #${pullRequest} at its head ${head12}: its pipeline runs chant-wave run --record-plans`;
  }
  const wave = recorded.waves.find((entry) => entry.gate === gate);
  if (wave === undefined) {
    return `no recorded plans for gate "${gate}" in the plans of #${pullRequest} at ${head12}`;
  }
  if (wave.digest !== digest) {
    return `the plan moved after the review: #${pullRequest} at ${head12} recorded ${wave.digest} for wave ${wave.wave} "${wave.name}", but it plans ${digest} now`;
  }
  return undefined;
}

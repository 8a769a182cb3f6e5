/**
 * Which approvals belong to earlier rollouts (docs/ledger.md, "Compacting the
 * ledger"), pure: an approval is spent when each plan of its plan set is
 * empty or its target applied a plan (`ok`) after it, under any approval (the
 * plan applied, or the target moved past it); one of a digest without a plan
 * set, when a plan applied after it under another approval (the wave moved
 * on). A spent approval bears on no new decision: a gate is settled once every
 * approval in it is (`spent_cut.ts`), and a waiting job never describes one as
 * approving a plan that moved (`decide_gate.ts`). Under `required: N`, the
 * approvals whose plans were claimed under another one's are spent with it.
 * @module
 */

import type { LedgerRecord } from "./records.ts";

/** What {@linkcode spentApprovals} reads of a plan set's member. */
export interface SpentMember {
  /** The run's target. */
  target: string;
  /** The plan changes nothing: it needs no apply. */
  empty?: boolean;
}

/**
 * Finds the spent approvals among a gate's records (see the module).
 * @param records The gate's records in ledger order.
 * @param sets The plan set of each approved digest that has one.
 * @returns The ids of the spent approvals.
 * @example
 * ```ts
 * spentApprovals([], new Map()); // Set {}
 * ```
 */
export function spentApprovals(
  records: readonly LedgerRecord[],
  sets: ReadonlyMap<string, readonly SpentMember[]>,
): Set<string> {
  // Per target, the last place a plan of it applied.
  const lastOk = new Map<string, number>();
  // The last place a plan applied, under each approval.
  const okUnder = new Map<string, number>();
  records.forEach((record, i) => {
    if (record.kind !== "run-outcome") return;
    for (const run of record.runs) {
      if (run.outcome !== "ok") continue;
      lastOk.set(run.target, i);
      okUnder.set(record.approvalId, i);
    }
  });
  const spent = new Set<string>();
  records.forEach((record, place) => {
    if (record.kind !== "approval") return;
    const set = sets.get(record.planDigest);
    const done = set === undefined
      ? [...okUnder].some(([id, i]) => id !== record.id && i > place)
      : set.every((member) =>
        member.empty === true || (lastOk.get(member.target) ?? -1) > place
      );
    if (done) spent.add(record.id);
  });
  return spent;
}

/**
 * Which approvals were already used for a plan (SPEC.md §12.1): an approval
 * in the ledger before a claim of that plan that applied it or has no outcome
 * yet may have counted for that claim, so it never counts for the plan again.
 * A claim names the one approval it was made under, not every approver its
 * tally counted, so every approval before it counts as used: an approval may
 * be taken for used when it was not (a fresh one is then asked for), never
 * the other way round. Pure: records in, answers out.
 * @module
 */

import { type ClaimLedger, planKey } from "./claims.ts";
import type { LedgerRecord, PlanPair } from "./records.ts";

/** The first of some plans an approval was already used for, if any. */
export type UsedFor = <P extends PlanPair>(
  approvalId: string,
  plans: readonly P[],
) => P | undefined;

/**
 * Finds the approvals used for each plan.
 * @param records The gate's records, oldest first (ledger order).
 * @param claimsOf The claim ledger of each approval (`claimLedgers(records)`).
 * @returns The first of some plans an approval was already used for.
 * @example
 * ```ts
 * usedApprovals([], claimLedgers([]))("a1", [{ target: "eu", planDigest: d }]); // undefined
 * ```
 */
export function usedApprovals(
  records: readonly LedgerRecord[],
  claimsOf: (approvalId: string) => ClaimLedger,
): UsedFor {
  const position = new Map<string, number>();
  const claimedUnder = new Set<string>();
  let lastClaim = -1;
  records.forEach((record, at) => {
    // A repeated id stands at its last place: more approvals count as used.
    if (record.kind === "claim" || record.kind === "approval") {
      position.set(record.id, at);
    }
    if (record.kind === "claim") {
      claimedUnder.add(record.approvalId);
      lastClaim = at;
    }
  });
  if (claimedUnder.size === 0) return () => undefined;
  const lastUse = new Map<string, number>();
  const lastUseOf = (plan: PlanPair) => {
    const key = planKey(plan);
    let last = lastUse.get(key);
    if (last === undefined) {
      last = -1;
      for (const approvalId of claimedUnder) {
        for (const claimId of claimsOf(approvalId).uses(plan)) {
          last = Math.max(last, position.get(claimId) ?? -1);
        }
      }
      lastUse.set(key, last);
    }
    return last;
  };
  return (approvalId, plans) => {
    const at = position.get(approvalId) ?? Infinity;
    // One after every claim was used for nothing.
    if (at > lastClaim) return undefined;
    return plans.find((plan) => at < lastUseOf(plan));
  };
}

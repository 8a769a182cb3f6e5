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

/**
 * Finds the approvals used for each plan.
 * @param records The gate's records, oldest first (ledger order).
 * @param claimsOf The claim ledger of each approval (`claimLedgers(records)`).
 * @returns For a plan, the ids of the approvals already used for it.
 * @example
 * ```ts
 * usedApprovals([], claimLedgers([]))({ target: "eu", planDigest: d }); // Set {}
 * ```
 */
export function usedApprovals(
  records: readonly LedgerRecord[],
  claimsOf: (approvalId: string) => ClaimLedger,
): (plan: PlanPair) => ReadonlySet<string> {
  const position = new Map<string, number>();
  const claimedUnder = new Set<string>();
  const approvals: { id: string; at: number }[] = [];
  records.forEach((record, at) => {
    if (record.kind === "claim") {
      // A repeated id stands at its last place: more approvals count as used.
      position.set(record.id, at);
      claimedUnder.add(record.approvalId);
    } else if (record.kind === "approval") {
      approvals.push({ id: record.id, at });
    }
  });
  const found = new Map<string, ReadonlySet<string>>();
  return (plan) => {
    const key = planKey(plan);
    const known = found.get(key);
    if (known) return known;
    let last = -1;
    for (const approvalId of claimedUnder) {
      for (const claimId of claimsOf(approvalId).uses(plan)) {
        last = Math.max(last, position.get(claimId) ?? -1);
      }
    }
    const used = new Set(
      approvals.filter((a) => a.at < last).map((a) => a.id),
    );
    found.set(key, used);
    return used;
  };
}

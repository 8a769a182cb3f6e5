/**
 * Which approvals were already used for a plan (SPEC.md §12.1): an approval
 * in the ledger before a claim of that plan that applied it or has no outcome
 * yet may have counted for that claim, so it never counts for the plan again.
 * A claim names the one approval it was made under, not every approver its
 * tally counted, so every approval before it counts as used: an approval may
 * be taken for used when it was not (a fresh one is then asked for), never
 * the other way round. A sealed approval is before a claim also when it was
 * signed before the claim was written: its seal signs its time, not its place,
 * so a copy that reaches the ledger after the claim is as used as the
 * original. Pure: records in, answers out.
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
  const written = new Map<string, number>();
  const signed = new Map<string, number>();
  const claimedUnder = new Set<string>();
  let lastClaim = -1;
  let lastClaimTime = -Infinity;
  records.forEach((record, at) => {
    // A repeated id stands at its last place: more approvals count as used.
    if (record.kind === "claim" || record.kind === "approval") {
      position.set(record.id, at);
    }
    if (record.kind === "approval" && record.seal !== undefined) {
      signed.set(record.id, Date.parse(record.timestamp));
    }
    if (record.kind === "claim") {
      const time = Date.parse(record.timestamp);
      claimedUnder.add(record.approvalId);
      written.set(record.id, Math.max(written.get(record.id) ?? time, time));
      lastClaim = at;
      lastClaimTime = Math.max(lastClaimTime, time);
    }
  });
  if (claimedUnder.size === 0) return () => undefined;
  const lastUse = new Map<string, { at: number; time: number }>();
  const lastUseOf = (plan: PlanPair) => {
    const key = planKey(plan);
    let last = lastUse.get(key);
    if (last === undefined) {
      last = { at: -1, time: -Infinity };
      for (const approvalId of claimedUnder) {
        for (const claimId of claimsOf(approvalId).uses(plan)) {
          last.at = Math.max(last.at, position.get(claimId) ?? -1);
          last.time = Math.max(last.time, written.get(claimId) ?? -Infinity);
        }
      }
      lastUse.set(key, last);
    }
    return last;
  };
  return (approvalId, plans) => {
    const at = position.get(approvalId) ?? Infinity;
    const time = signed.get(approvalId) ?? Infinity;
    // One after every claim (in place and, when sealed, in time) was used for
    // nothing.
    if (at > lastClaim && time > lastClaimTime) return undefined;
    return plans.find((plan) => {
      const last = lastUseOf(plan);
      return at < last.at || time <= last.time;
    });
  };
}

/**
 * The coverage rules of SPEC.md §10 that the gate decision and its waiting
 * reasons share: which records are live after a revoke, which members an
 * approval must cover, and whether it covers them. Pure.
 * @module
 */

import type { ClaimLedger } from "./claims.ts";
import type { ApprovalRecord, PlanPair } from "./records.ts";

/** A member of a decision: its plan, and whether the plan changes nothing. */
export interface GateMember extends PlanPair {
  /** An empty plan needs no approval. */
  empty?: boolean;
}

/** The plans each approved digest names (from the pending facts' plan sets). */
export type PlanSets = ReadonlyMap<string, readonly PlanPair[]>;

/**
 * The members an approval must cover: the non-empty ones not already applied
 * under it.
 */
export function needing(
  members: readonly GateMember[],
  claims: ClaimLedger,
): GateMember[] {
  return members.filter((m) =>
    m.empty !== true && claims.standing(m).kind !== "applied"
  );
}

/**
 * The members an approval must cover (the non-empty ones not applied under
 * it), those of them claimed under it with no outcome (a job refuses to claim
 * them again), and the rest, which a job would claim: each of those needs
 * approvers not used for it before (§12.1).
 */
export function sortMembers(
  members: readonly GateMember[],
  claims: ClaimLedger,
): { need: GateMember[]; unsettled: GateMember[]; claimable: GateMember[] } {
  const need: GateMember[] = [];
  const unsettled: GateMember[] = [];
  const claimable: GateMember[] = [];
  for (const member of members) {
    if (member.empty === true) continue;
    const { kind } = claims.standing(member);
    if (kind === "applied") continue;
    need.push(member);
    (kind === "unsettled" ? unsettled : claimable).push(member);
  }
  return { need, unsettled, claimable };
}

/** Whether `approval` covers every member of `need`. */
export function covers(
  approval: ApprovalRecord,
  sets: PlanSets,
  need: readonly GateMember[],
  digest: string,
): boolean {
  const missing = uncovered(approval, sets, need, digest);
  return missing !== "another-digest" && missing.length === 0;
}

/** The members of `need` that `approval` does not cover. */
export function uncovered(
  approval: ApprovalRecord,
  sets: PlanSets,
  need: readonly GateMember[],
  digest: string,
): GateMember[] | "another-digest" | [] {
  const set = sets.get(approval.planDigest);
  if (set === undefined) {
    return approval.planDigest === digest || need.length === 0
      ? []
      : "another-digest";
  }
  const approved = new Set(set.map((p) => `${p.target}\n${p.planDigest}`));
  return need.filter((m) => !approved.has(`${m.target}\n${m.planDigest}`));
}

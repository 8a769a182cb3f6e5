/**
 * The tally of fresh approvals (SPEC.md §12.1): of the approvals that cover a
 * decision's plans, those not used before for a plan a job is to claim, and
 * the approvers left out because theirs were. Pure; `decideGate` decides.
 * @module
 */

import type { GateMember } from "./_coverage.ts";
import {
  type GateRules,
  type Tally,
  tallyApprovals,
  verdictOf,
} from "./gate_tally.ts";
import type { ApprovalRecord } from "./records.ts";
import type { UsedFor } from "./used_approvals.ts";

/**
 * The tally of the approvals that cover the plans, leaving out those already
 * used for a plan to be claimed (SPEC.md §12.1): an approver counted only
 * through such approvals is named, with the plan.
 * @param covering The approvals that cover the plans, oldest first.
 * @param claimable The plans a job would claim under the approval.
 * @param used The approvals already used for a plan (`usedApprovals`).
 * @param query The decision's digest and the rules.
 * @returns The tally.
 * @example
 * ```ts
 * freshTally([ann, bob], [eu], (id, plans) => id === ann.id ? plans[0] : undefined, { digest });
 * // { required: 1, counted: ["bob"], refused: [{ display: "ann", why: "used for eu before" }] }
 * ```
 */
export function freshTally(
  covering: readonly ApprovalRecord[],
  claimable: readonly GateMember[],
  used: UsedFor,
  query: { digest: string; rules?: GateRules },
): Tally {
  const usedFor = (approval: ApprovalRecord) => used(approval.id, claimable);
  // One that does not count is named for its own reason.
  const fresh = covering.filter((a) =>
    !verdictOf(a, query.rules).counts || usedFor(a) === undefined
  );
  const tally = tallyApprovals(fresh, query.rules, query.digest);
  if (fresh.length === covering.length) return tally;
  const counting = new Set(
    fresh.map((a) => verdictOf(a, query.rules))
      .filter((v) => v.counts).map((v) => v.principal),
  );
  const named = new Set<string>();
  for (const approval of covering) {
    const plan = usedFor(approval);
    const verdict = verdictOf(approval, query.rules);
    if (
      plan === undefined || !verdict.counts ||
      counting.has(verdict.principal) || named.has(verdict.principal)
    ) continue;
    named.add(verdict.principal);
    tally.refused.push({
      display: verdict.display,
      why: `used for ${plan.target} before`,
    });
  }
  return tally;
}

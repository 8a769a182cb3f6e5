/**
 * Decides whether a wave needs a person's approval, from its policy at base and its
 * members' plans (SPEC.md §4.4). Pure; it does not look at the ledger (whether an
 * approval stands is the gate decision's job).
 * @module
 */

import type { GatePolicy } from "../spec/types.ts";

/** What {@linkcode needsApproval} reads of a member's plan. */
export interface PlannedMember {
  /** The run's target; named in the reason when given. */
  target?: string;
  /** The plan destroys something. */
  destructive?: boolean;
  /** The plan changes nothing. */
  empty?: boolean;
}

/** Whether an approval is needed, and why, as one line for the log. */
export interface ApprovalNeed {
  /** `true` when the wave may not apply without a standing approval. */
  needed: boolean;
  /** Why, e.g. `the policy is "always"`. */
  why: string;
}

const MAX_NAMED = 3;

function destructiveWhy(destructive: readonly PlannedMember[]): string {
  const n = destructive.length;
  const what = n === 1
    ? "1 member is destructive"
    : `${n} members are destructive`;
  const targets = destructive.flatMap((m) =>
    m.target === undefined ? [] : [`"${m.target}"`]
  );
  if (targets.length !== n) return `the policy is "on-destructive" and ${what}`;
  const named = targets.slice(0, MAX_NAMED).join(", ") +
    (n > MAX_NAMED ? `, and ${n - MAX_NAMED} more` : "");
  return `the policy is "on-destructive" and ${what}: ${named}`;
}

/**
 * Decides whether a wave needs an approval: a wave with no members needs none, nor
 * does one whose every member's plan is `empty`; otherwise `always` needs one,
 * `on-destructive` needs one when some member is `destructive`, `never` needs none.
 * @param policy The wave's policy, read at base.
 * @param members The wave's planned members (the whole wave, not a slice).
 * @returns Whether an approval is needed and the reason.
 * @example
 * ```ts
 * needsApproval("on-destructive", [{ target: "eu", destructive: true }]);
 * // { needed: true, why: 'the policy is "on-destructive" and 1 member is destructive: "eu"' }
 * needsApproval("always", []);
 * // { needed: false, why: "the wave has no members, so it needs no approval" }
 * ```
 */
export function needsApproval(
  policy: GatePolicy,
  members: readonly PlannedMember[],
): ApprovalNeed {
  if (members.length === 0) {
    return {
      needed: false,
      why: "the wave has no members, so it needs no approval",
    };
  }
  if (members.every((m) => m.empty === true)) {
    return { needed: false, why: "every member's plan is empty" };
  }
  switch (policy) {
    case "always":
      return { needed: true, why: 'the policy is "always"' };
    case "never":
      return { needed: false, why: 'the policy is "never"' };
    case "on-destructive": {
      const destructive = members.filter((m) => m.destructive === true);
      return destructive.length === 0
        ? {
          needed: false,
          why: 'the policy is "on-destructive" and no member is destructive',
        }
        : { needed: true, why: destructiveWhy(destructive) };
    }
  }
}

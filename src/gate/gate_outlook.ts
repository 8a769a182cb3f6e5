/**
 * The gate a wave will meet, stated before it runs (SPEC.md §18): for the plan
 * job on a pull or merge request, the policy and approver rules read at the
 * request's base (§4.4, never the request's own spec), tightened or loosened
 * by the wave's rules over what its plans change (`plan_rules.ts`), whether
 * the planned runs then need an approval, and which rule decided. It composes
 * the gate core's own readers (`wavePolicy`, `rulesVerdictAtBase`,
 * `needsApproval`), so whatever decides a wave's gate decides what this says,
 * and the wave's soak, freeze windows and canary at base (`timingAtBase`). It decides nothing
 * itself and reads no ledger: what it returns is information, never an
 * approval. Pure.
 * @module
 */

import type { Wave } from "../spec/types.ts";
import type { GatePolicy } from "../spec/types.ts";
import { describeApprovers } from "./approval_at_base.ts";
import type { PolicyBase } from "./base_spec.ts";
import {
  needsApproval,
  type PlannedMember,
  wavePolicy,
} from "./policy_at_base.ts";
import { type RuleMember, rulesVerdictAtBase } from "./plan_rules.ts";
import { type TimingAtBase, timingAtBase } from "./timing_at_base.ts";
import { describeWindow } from "./freeze_windows.ts";
import { formatDuration } from "../spec/duration.ts";

/** The gate a wave will meet with the plans it has now. */
export interface GateOutlook {
  /** The gate read at base (the strictest over every base), after its rules. */
  policy: GatePolicy;
  /** Whether the planned runs need a person's approval under it. */
  needed: boolean;
  /** How many distinct approvers the rules at base require (rules included). */
  required: number;
  /** The approver rules in words (`2 distinct approvers, anyone, no self-approval`). */
  approvers: string;
  /**
   * Which rule decided, for people: why an approval is or is not needed,
   * where the policy was read (`the policy is "always" (read at <sha12>: …)`)
   * and each rule over the plans that tightened or loosened it, in the words
   * `run`'s log and `show` use.
   */
  rule: string;
  /**
   * The wave's soak, freeze windows and canary at base (SPEC.md §19), in
   * words, when it has any: `soak 2h after the wave before (read at …);
   * freeze windows: fri 14:00-24:00 Europe/Berlin; canary 1 (read at …)`.
   */
  timing?: string;
}

/**
 * States the gate a wave will meet given its planned runs, as the wave's job
 * would decide it (its ledger aside): the policy and approver rules at base,
 * the rules over the plans' changes, then `needsApproval`.
 * @param bases The commits the rules are read at and the spec at each.
 * @param wave The wave (number and name).
 * @param members The wave's planned runs.
 * @returns The outlook.
 * @example
 * ```ts
 * gateOutlook([{ sha, spec: { status: "absent" } }], { k: 1, name: "dev" }, []);
 * // { policy: "always", needed: false, required: 1, … }
 * ```
 */
export function gateOutlook(
  bases: readonly PolicyBase[],
  wave: Pick<Wave, "k" | "name">,
  members: readonly (PlannedMember & RuleMember)[],
): GateOutlook {
  const targets = members.map((m) => m.target);
  const policy = wavePolicy(bases, wave, targets);
  const verdict = rulesVerdictAtBase(
    bases,
    wave,
    targets,
    policy.policy,
    members,
  );
  const need = needsApproval(verdict.gate, members);
  const timing = timingWords(
    timingAtBase(bases, { k: wave.k, name: wave.name, targets }),
  );
  const decided = [...verdict.decided, ...verdict.unmet].map((rule) =>
    `; and ${rule.description}`
  );
  return {
    policy: verdict.gate,
    needed: need.needed,
    required: verdict.approvers.required,
    approvers: describeApprovers(verdict.approvers),
    rule: `${need.why} (${policy.reason}${decided.join("")})`,
    ...(timing ? { timing } : {}),
  };
}

/** How many freeze windows the words name. */
const NAMED_WINDOWS = 3;

/** A wave's timing at base in words, or `undefined` when it has none. */
function timingWords(timing: TimingAtBase): string | undefined {
  const parts: string[] = [];
  if (timing.soakMs > 0) {
    parts.push(
      `soak ${
        formatDuration(timing.soakMs)
      } after the wave before (read ${timing.soakFrom})`,
    );
  }
  if (timing.freeze.length > 0) {
    const named = timing.freeze.slice(0, NAMED_WINDOWS).map(describeWindow);
    const more = timing.freeze.length - named.length;
    if (more > 0) named.push(`and ${more} more`);
    parts.push(`freeze windows: ${named.join(", ")}`);
  }
  if (timing.canary !== undefined) {
    parts.push(`canary ${timing.canary} (read ${timing.canaryFrom})`);
  }
  return parts.length > 0 ? parts.join("; ") : undefined;
}

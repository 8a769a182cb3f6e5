/**
 * The rules stage of a deciding, whole-wave, share or group job (SPEC.md
 * §18): the wave's rules over what its plans change, read at the same bases
 * as its policy, judged on every member's changes (`gate/plan_rules.ts`), the
 * lines that say which rule decided logged after the policy line, and the
 * policy and approver rules the gate is then decided under. It decides
 * nothing else: whether an approval is needed, and whether one counts, is the
 * decide stage's.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { PolicyAtBase } from "../gate/policy_at_base.ts";
import type { ApprovalRules } from "../gate/approval_at_base.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
import {
  type RuleMember,
  rulesLines,
  type RulesVerdict,
  rulesVerdictAtBase,
} from "../gate/plan_rules.ts";
import type { Wave } from "../spec/types.ts";

/** The policy and approver rules a wave's gate is decided under. */
export interface RuledGate {
  /** The policy at base, its gate the rules' verdict, its reason naming them. */
  policy: PolicyAtBase;
  /** The approver rules at base, tightened by every rule that matched. */
  approvers: ApprovalRules;
  /** The verdict, with the rules that decided. */
  verdict: RulesVerdict;
}

/**
 * Judges the wave's rules at base on its members' changes and logs which
 * decided.
 * @param bases The bases the policy was read at (the job's own first).
 * @param wave The wave.
 * @param targets Every target it holds (declared and planned).
 * @param policy The policy at base (`wavePolicy`).
 * @param members Every member of the wave, with its changes.
 * @param stderr The job's log.
 * @returns The policy and approver rules to decide the gate under.
 */
export function rulesStage(
  bases: readonly PolicyBase[],
  wave: Pick<Wave, "k" | "name">,
  targets: readonly string[],
  policy: PolicyAtBase,
  members: readonly RuleMember[],
  stderr: Writer,
): RuledGate {
  const verdict = rulesVerdictAtBase(
    bases,
    wave,
    targets,
    policy.policy,
    members,
  );
  const log = lineLog(stderr);
  for (const line of rulesLines(verdict, policy.policy, wave)) log(line);
  const decided = verdict.decided.map((rule) => rule.description);
  return {
    policy: decided.length === 0 ? policy : {
      ...policy,
      policy: verdict.gate,
      reason: `${policy.reason}; and ${decided.join("; and ")}`,
    },
    approvers: verdict.approvers,
    verdict,
  };
}

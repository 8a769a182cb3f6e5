/**
 * A wave's gate policy over every base a job reads the rules at (SPEC.md
 * §4.4): the policy at each base for every target the wave holds, the
 * strictest winning, and the lines that say what decided it and whether the
 * change's own `gate` differs. Pure; the share job's check of a decision and
 * the deciding job's decide stage both take the policy from here.
 * @module
 */

import type { Wave } from "../spec/types.ts";
import {
  type PolicyAtBase,
  policyAtBase,
  strictestPolicy,
} from "./policy_at_base.ts";
import type { PolicyBase } from "./base_spec.ts";

/**
 * Decides the wave's policy at one or more bases (the strictest wins) for every
 * target it holds.
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave (its number and name).
 * @param targets Every target the wave holds in this job (declared and planned).
 * @returns The policy; with several bases its reason joins each base's.
 * @example
 * ```ts
 * wavePolicy([{ sha, spec: { status: "absent" } }], wave, ["eu"]).policy; // "always"
 * ```
 */
export function wavePolicy(
  bases: readonly PolicyBase[],
  wave: Pick<Wave, "k" | "name">,
  targets: Iterable<string>,
): PolicyAtBase {
  const ref = { k: wave.k, name: wave.name, targets: [...targets] };
  const reads = bases.map((base) => policyAtBase(base, ref));
  if (reads.length === 1) return reads[0];
  return {
    policy: strictestPolicy(reads.map((read) => read.policy)),
    source: reads.some((read) => read.source === "base")
      ? "base"
      : "absent-at-base",
    reason: reads.map((read) => read.reason).join("; and "),
    governing: reads.flatMap((read) => read.governing),
  };
}

/**
 * The log lines of a wave's policy: `policy of wave <k> "<name>": <policy>
 * (<reason>)`, and a note when the change's own `gate` differs (it holds only
 * once merged).
 * @param policy The policy at base.
 * @param wave The wave as the change has it (its `gate`).
 * @returns One or two lines.
 * @example
 * ```ts
 * wavePolicyLines({ policy: "always", reason: "r" } as PolicyAtBase, { k: 1, name: "dev", gate: "always" });
 * // ['policy of wave 1 "dev": always (r)']
 * ```
 */
export function wavePolicyLines(
  policy: Pick<PolicyAtBase, "policy" | "reason">,
  wave: Pick<Wave, "k" | "name" | "gate">,
): string[] {
  const lines = [
    `policy of wave ${wave.k} "${wave.name}": ${policy.policy} (${policy.reason})`,
  ];
  if (wave.gate !== policy.policy) {
    lines.push(
      `note: this change says gate "${wave.gate}" for wave ${wave.k} "${wave.name}"; ` +
        `the gate is read at base, so "${policy.policy}" holds until the change is merged`,
    );
  }
  return lines;
}

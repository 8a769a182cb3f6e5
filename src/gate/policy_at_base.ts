/**
 * A wave's policy at base (SPEC.md §4.4, §4.11), pure: the gate, the strictest
 * of the base waves that govern it (`always` when none does or the spec is
 * absent or broken there), over every base a job reads the rules at and every
 * target the wave holds, with the lines that say what decided it and whether
 * the change's own `gate` differs; whether the wave then needs a person's
 * approval given its members' plans (the ledger is the decision's business);
 * and whether waves must run in order, read at base like the gate.
 * @module
 */

import type { GatePolicy, Order, Wave } from "../spec/types.ts";
import {
  type BaseReason,
  type BaseSpec,
  describeGoverning,
  type GoverningWave,
  governingWaves,
  type PolicyBase,
  sayReads,
  type WaveRef,
} from "./base_spec.ts";

/** Where a policy came from: governing waves at base, or a fallback without them. */
export type PolicySource = "base" | "absent-at-base";

/** A wave's policy as read at base, with the reason the log prints. */
export interface PolicyAtBase {
  /** The policy that decides whether an approval is needed. */
  policy: GatePolicy;
  /** `base` when waves at base govern the wave; `absent-at-base` otherwise. */
  source: PolicySource;
  /** One line for the log: `read at <sha12>: …`, `the spec is not in <sha12>`, … */
  reason: string;
  /** The reason's reads, one per base, for joining with others. */
  reads: BaseReason[];
  /** The base waves that govern it (none for a fallback). */
  governing: GoverningWave[];
}

const STRICTNESS: Record<GatePolicy, number> = {
  "never": 0,
  "on-destructive": 1,
  "always": 2,
};

/**
 * The strictest of some policies: `always` > `on-destructive` > `never`.
 * @param policies At least one policy.
 * @returns The strictest.
 * @example
 * ```ts
 * strictestPolicy(["never", "on-destructive"]); // "on-destructive"
 * ```
 */
export function strictestPolicy(policies: readonly GatePolicy[]): GatePolicy {
  return policies.reduce((a, b) => STRICTNESS[b] > STRICTNESS[a] ? b : a);
}

/**
 * Decides the policy of one wave from the spec at base, per every row of the
 * SPEC.md §4.4 table. Whatever goes wrong at base, the answer is `always` (fail
 * closed); the working copy's `gate` is never consulted. A governing wave that
 * sets no `gate` counts as `always` (the parser's default). A base whose spec
 * does not parse is read at the newest version before it that parses
 * (`base/valid_version.ts`), so one still unparsable here is one no version
 * of back to the root parses; its problem is logged once, with the base.
 * @param base The base commit's full sha and the spec there (with the file and
 *   its blob id, which the reason then names).
 * @param wave The wave of the change: number, name and every target it holds.
 * @returns The policy, its source, the reason line and the governing waves.
 * @example
 * ```ts
 * policyAtBase({ sha, spec: { status: "absent" } }, { k: 2, name: "prod", targets: [] });
 * // { policy: "always", source: "absent-at-base",
 * //   reason: "the spec is not in 0123456789ab", governing: [] }
 * ```
 */
export function policyAtBase(
  base: { sha: string; spec: BaseSpec; file?: string; blob?: string },
  wave: WaveRef,
): PolicyAtBase {
  const at = base.sha.slice(0, 12);
  const fallback = (lead: string, rest: string): PolicyAtBase => {
    const read = { lead, at, rest };
    return {
      policy: "always",
      source: "absent-at-base",
      reason: sayReads([read]),
      reads: [read],
      governing: [],
    };
  };
  const spec = base.spec;
  if (spec.status === "absent") return fallback("the spec is not in ", "");
  if (spec.status === "unparsable") {
    return fallback("no version of the spec at or before ", " parses");
  }
  const governing = governingWaves(spec.spec.waves, wave);
  if (governing.length === 0) {
    return fallback("no wave at ", ` governs wave ${wave.k} "${wave.name}"`);
  }
  const blob = base.file !== undefined && base.blob !== undefined
    ? ` in ${base.file}, blob ${base.blob.slice(0, 12)}`
    : "";
  const read = {
    lead: "read at ",
    at,
    rest: `${blob}: ${describeGoverning(governing)}`,
  };
  return {
    policy: strictestPolicy(governing.map((g) => g.wave.gate)),
    source: "base",
    reason: sayReads([read]),
    reads: [read],
    governing,
  };
}

/**
 * Decides the wave's policy at one or more bases (the strictest wins) for every
 * target it holds.
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave (its number and name).
 * @param targets Every target the wave holds in this job (declared and planned).
 * @returns The policy; with several bases its reason joins each base's, the
 *   commits of reads alike named together.
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
  const policies = bases.map((base) => policyAtBase(base, ref));
  if (policies.length === 1) return policies[0];
  const reads = policies.flatMap((read) => read.reads);
  return {
    policy: strictestPolicy(policies.map((read) => read.policy)),
    source: policies.some((read) => read.source === "base")
      ? "base"
      : "absent-at-base",
    reason: sayReads(reads),
    reads,
    governing: policies.flatMap((read) => read.governing),
  };
}

/**
 * The log lines of a wave's policy: `policy of wave <k> "<name>": <policy>
 * (<reason>)`, and a note when the change's own `gate` differs: it holds for
 * the changes whose base has it (the next push's, once this one is pushed;
 * never this change's own, merged or not).
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
        `the gate is read at base, so "${policy.policy}" holds for this change, and "${wave.gate}" for a change based on it`,
    );
  }
  return lines;
}

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

/**
 * Reads `order` from the spec at base; `strict` unless the spec there says `none`
 * (a spec absent or broken at base means `strict`).
 * @param base The base commit's sha and the spec there.
 * @returns The order and why.
 * @example
 * ```ts
 * orderAtBase({ sha, spec: { status: "absent" } });
 * // { order: "strict", reason: "the spec is not in 0123456789ab" }
 * ```
 */
export function orderAtBase(
  base: { sha: string; spec: BaseSpec },
): { order: Order; reason: string } {
  const sha12 = base.sha.slice(0, 12);
  if (base.spec.status === "absent") {
    return { order: "strict", reason: `the spec is not in ${sha12}` };
  }
  if (base.spec.status === "unparsable") {
    return {
      order: "strict",
      reason: `no version of the spec at or before ${sha12} parses`,
    };
  }
  return { order: base.spec.spec.order, reason: `read at ${sha12}` };
}

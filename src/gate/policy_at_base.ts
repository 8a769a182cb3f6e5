/**
 * Decides a wave's gate policy from the spec at the base commit (SPEC.md §4.4):
 * the strictest gate of the base waves that govern it, `always` when none does or
 * the spec is absent or broken there, with the reason the log prints. Pure: the
 * spec at base is given; reading git is `read_base.ts`'s job.
 * @module
 */

import type { GatePolicy } from "../spec/types.ts";
import type { BaseSpec } from "./base_spec.ts";
import {
  describeGoverning,
  type GoverningWave,
  governingWaves,
  type WaveRef,
} from "./governing_waves.ts";

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
 * sets no `gate` counts as `always` (the parser's default).
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
  const sha12 = base.sha.slice(0, 12);
  const where = base.file !== undefined && base.blob !== undefined
    ? `${sha12} in ${base.file}, blob ${base.blob.slice(0, 12)}`
    : sha12;
  const fallback = (reason: string): PolicyAtBase => ({
    policy: "always",
    source: "absent-at-base",
    reason,
    governing: [],
  });
  const spec = base.spec;
  if (spec.status === "absent") return fallback(`the spec is not in ${sha12}`);
  if (spec.status === "unparsable") {
    return fallback(`the spec at ${sha12} does not parse: ${spec.problem}`);
  }
  const governing = governingWaves(spec.spec.waves, wave);
  if (governing.length === 0) {
    return fallback(
      `no wave at ${sha12} governs wave ${wave.k} "${wave.name}"`,
    );
  }
  return {
    policy: strictestPolicy(governing.map((g) => g.wave.gate)),
    source: "base",
    reason: `read at ${where}: ${describeGoverning(governing)}`,
    governing,
  };
}

/**
 * Decides, from the spec at the base commits, whether a wave's deploy scripts
 * may clear their destructive statements with a `-- chant-wave: not
 * destructive` line: only when every base wave that governs the wave (SPEC.md
 * §4.4), at every base read, says `destructiveOverrides: "honour"`, so a change
 * can never let its own script mark itself harmless. Pure: the specs at base are
 * given; reading git is the job's.
 * @module
 */

import {
  type BaseSpec,
  describeGoverning,
  governingWaves,
  type WaveRef,
} from "../gate/base_spec.ts";

/** Whether marks count, and why, as read at base. */
export interface OverridesAtBase {
  /** True when a deploy script's not-destructive mark counts. */
  honour: boolean;
  /** One phrase for the log: `read at <sha12>: …`, `the spec is not in <sha12>`, … */
  reason: string;
}

/** What one base says. */
function atOneBase(
  base: { sha: string; spec: BaseSpec },
  wave: WaveRef,
): OverridesAtBase {
  const sha12 = base.sha.slice(0, 12);
  const spec = base.spec;
  if (spec.status === "absent") {
    return { honour: false, reason: `the spec is not in ${sha12}` };
  }
  if (spec.status === "unparsable") {
    return {
      honour: false,
      reason: `the spec at ${sha12} does not parse: ${spec.problem}`,
    };
  }
  const governing = governingWaves(spec.spec.waves, wave);
  if (governing.length === 0) {
    return {
      honour: false,
      reason: `no wave at ${sha12} governs wave ${wave.k} "${wave.name}"`,
    };
  }
  return {
    honour: governing.every((g) => g.wave.destructiveOverrides === "honour"),
    reason: `read at ${sha12}: ${describeGoverning(governing)}`,
  };
}

/**
 * Reads `destructiveOverrides` at each base through the waves that govern
 * `wave` there; the strictest wins (`ignore`): a spec absent or broken at a
 * base, or no governing wave there, means `ignore`.
 * @param bases The commits and the spec at each, at least one.
 * @param wave The wave of the change: number, name and every target it holds.
 * @returns Whether marks count and the reasons, joined with `; and `.
 * @example
 * ```ts
 * overridesAtBase([{ sha, spec: { status: "absent" } }], { k: 1, name: "dev", targets: [] });
 * // { honour: false, reason: "the spec is not in 0123456789ab" }
 * ```
 */
export function overridesAtBase(
  bases: readonly { sha: string; spec: BaseSpec }[],
  wave: WaveRef,
): OverridesAtBase {
  const reads = bases.map((base) => atOneBase(base, wave));
  return {
    honour: reads.length > 0 && reads.every((read) => read.honour),
    reason: reads.map((read) => read.reason).join("; and "),
  };
}

/**
 * Which waves of the spec at base govern a wave of the change (SPEC.md §4.4): the
 * base wave of the same name, the one at the same position (a rest wave at base
 * stands at every position past it, §11), and every base wave holding a target
 * the wave holds. Every policy read at base (the gate, and the
 * rules that later sections add) is the strictest over these, so renaming a wave,
 * swapping two names or moving targets between waves loosens nothing. Pure.
 * @module
 */

import type { Wave } from "../spec/types.ts";

/** The wave of the change being governed. */
export interface WaveRef {
  /** Its number. */
  k: number;
  /** Its name. */
  name: string;
  /**
   * Every target it holds (for a discovering wave, the targets it planned),
   * in any order; one named twice counts once.
   */
  targets: readonly string[];
}

/** A base wave that governs, and why. */
export interface GoverningWave {
  /** The wave as the spec at base has it. */
  wave: Wave;
  /** Same name. */
  byName: boolean;
  /** Same position. */
  byPosition: boolean;
  /** The targets both hold, sorted. */
  byTargets: string[];
}

/**
 * Finds the base waves that govern `wave`, in base order.
 * @param baseWaves The waves of the spec at base.
 * @param wave The wave of the change: number, name and targets.
 * @returns The governing waves, possibly none (a new wave with new targets).
 * @example
 * ```ts
 * governingWaves(base.waves, { k: 2, name: "staging", targets: ["prod-eu"] })
 *   .map((g) => g.wave.name); // ["staging", "prod"]
 * ```
 */
export function governingWaves(
  baseWaves: readonly Wave[],
  wave: WaveRef,
): GoverningWave[] {
  // Sorted lists met in one pass rather than a set: a set of a large wave's
  // targets is megabytes (110 bytes a target under bun), for every read.
  const targets = [...wave.targets].sort();
  const governing: GoverningWave[] = [];
  const last = baseWaves[baseWaves.length - 1];
  for (const base of baseWaves) {
    const byTargets = common(
      base.runs.map((run) => run.target).sort(),
      targets,
    );
    const byName = base.name === wave.name;
    // A rest wave at base stands for every wave past it (§11): it is at wave
    // k's position for every such k.
    const byPosition = base.k === wave.k ||
      (base === last && base.rest && wave.k > base.k);
    if (byName || byPosition || byTargets.length > 0) {
      governing.push({ wave: base, byName, byPosition, byTargets });
    }
  }
  return governing;
}

/** The entries of sorted `held` that sorted `wanted` has too, in order. */
function common(held: readonly string[], wanted: readonly string[]): string[] {
  const both: string[] = [];
  let w = 0;
  for (const target of held) {
    while (w < wanted.length && wanted[w] < target) w++;
    if (w < wanted.length && wanted[w] === target) both.push(target);
  }
  return both;
}

const NAMED_TARGETS = 3;

function joinAnd(parts: readonly string[]): string {
  return parts.length <= 1
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * Says why each wave governs, for the log: `wave 2 "staging" by name and
 * position; wave 3 "prod" by target prod-eu`. Shared targets are named only for
 * a wave that governs by them alone.
 * @param governing The governing waves.
 * @returns One phrase; empty for none.
 * @example
 * ```ts
 * describeGoverning([{ wave: prod, byName: false, byPosition: false, byTargets: ["eu"] }]);
 * // 'wave 3 "prod" by target eu'
 * ```
 */
export function describeGoverning(governing: readonly GoverningWave[]): string {
  return governing.map(({ wave, byName, byPosition, byTargets }) => {
    const why: string[] = [];
    if (byName) why.push("name");
    if (byPosition) why.push("position");
    if (why.length === 0) {
      const named = byTargets.slice(0, NAMED_TARGETS).join(", ");
      const more = byTargets.length - NAMED_TARGETS;
      why.push(
        `target${byTargets.length === 1 ? "" : "s"} ${named}${
          more > 0 ? ` and ${more} more` : ""
        }`,
      );
    }
    return `wave ${wave.k} "${wave.name}" by ${joinAnd(why)}`;
  }).join("; ");
}

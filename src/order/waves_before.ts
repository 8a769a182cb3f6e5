/**
 * Which waves of the working copy must be complete before a wave runs (SPEC.md
 * §4.11): the wave before it, and, since the order is policy, every wave that at
 * a base came before a base wave governing it (§4.4), matched in the working copy
 * by name (or, for a wave whose name no base wave has, by target). So moving
 * prod to position 1, or inserting a new first wave that holds a prod target,
 * never lets prod run before the waves the merged configuration put ahead of
 * it; and a wave holding runs of two base waves the order runs apart (dev's
 * and staging's, say) waits until the change is merged. A target stands here for the first base wave
 * that holds it: where every wave holds runs of the same names (`eu`, `us`
 * under `live/{wave}/{target}`), the base lets them run in its first wave, and
 * staging does not wait for prod because both hold `eu`. Pure: the specs in,
 * the waves to wait for out.
 * @module
 */

import { type BaseSpec, governingWaves } from "../gate/base_spec.ts";
import { type Spec, type Wave, waveAt } from "../spec/types.ts";

/** A wave to wait for, and why. */
export interface WaveToWaitFor {
  /** The working copy's wave. */
  wave: Wave;
  /**
   * Empty for the wave just before; else why the order at base asks for it:
   * `at 1a2b3c4d5e6f, wave 1 "dev" came before wave 3 "prod"`.
   */
  why: string;
}

/**
 * A base wave the order asks for that no wave of the working copy stands for
 * (the change removed it, or moved its targets into a wave of another base
 * name): the wave cannot be shown to have gone first, so the job waits.
 */
export interface GoneWave {
  /** The base wave, as the base has it. */
  gone: Wave;
  /** `at 1a2b3c4d5e6f, wave 1 "dev" came before wave 3 "prod"`. */
  why: string;
}

/**
 * Base waves the order at base runs apart, whose runs the change put together
 * in one wave: wave k holds runs of both (or the name of one and runs of the
 * other), so no order between them can be shown; the job waits until the
 * change is merged and the base is its own.
 */
export interface MergedWaves {
  /** The base waves, the earlier first. */
  merged: [Wave, Wave];
  /** The later base wave's targets wave k holds. */
  targets: string[];
  /** `at 1a2b3c4d5e6f` */
  why: string;
}

/**
 * The waves wave `k` waits for. Waves after it in the working copy are added
 * only when a base puts them first; waves before it are waited for through the
 * wave just before it, which waited for them in turn.
 * @param spec The working copy's spec.
 * @param k The wave's number.
 * @param targets Every target the wave holds.
 * @param bases The base commits and the spec at each.
 * @returns The waves to wait for, the wave before first, then the base waves
 *   no wave of the working copy stands for, then base waves wave k merges.
 * @example
 * ```ts
 * // at base: dev, staging, prod; the change moved prod first
 * wavesBefore(head, 1, ["prod-eu"], bases).map((w) => w.wave.name);
 * // ["dev", "staging"]
 * ```
 */
export function wavesBefore(
  spec: Pick<Spec, "waves">,
  k: number,
  targets: readonly string[],
  bases: readonly { sha: string; spec: BaseSpec }[],
): (WaveToWaitFor | GoneWave | MergedWaves)[] {
  const wave = waveAt(spec, k);
  const out: WaveToWaitFor[] = [];
  const gone: GoneWave[] = [];
  const merged: MergedWaves[] = [];
  const previous = waveAt(spec, k - 1);
  if (previous) out.push({ wave: previous, why: "" });
  if (!wave) return out;
  const ref = { k, name: wave.name, targets };
  for (const { sha, spec: at } of bases) {
    if (at.status !== "parsed") continue;
    const first = firstHolders(at.spec.waves);
    const names = new Set(at.spec.waves.map((w) => w.name));
    const apart = mergedAt(at.spec.waves, wave.name, targets, first);
    if (apart !== undefined) {
      merged.push({ ...apart, why: `at ${sha.slice(0, 12)}` });
    }
    const governing = governingWaves(at.spec.waves, ref).filter((g) =>
      g.byName || g.byPosition ||
      g.byTargets.some((target) => first.get(target) === g.wave.k)
    );
    if (governing.length === 0) continue;
    const last = governing.reduce((a, b) => b.wave.k > a.wave.k ? b : a).wave;
    for (const earlier of at.spec.waves.filter((w) => w.k < last.k)) {
      const why = `at ${
        sha.slice(0, 12)
      }, wave ${earlier.k} "${earlier.name}" came before wave ${last.k} "${last.name}"`;
      const matches = matchingWaves(spec.waves, earlier, first, names);
      if (matches.length === 0) {
        if (!gone.some((g) => g.gone.name === earlier.name)) {
          gone.push({ gone: earlier, why });
        }
        continue;
      }
      for (const match of matches) {
        if (match.k <= k || out.some((o) => o.wave.k === match.k)) continue;
        out.push({ wave: match, why });
      }
    }
  }
  // A merge whose earlier wave is gone says nothing more.
  const apart = merged.filter((m) =>
    !gone.some((g) => g.gone.name === m.merged[0].name)
  );
  return [...out, ...gone, ...apart.slice(0, 1)];
}

/**
 * The first and the last base wave that wave k stands for, when they are two:
 * the base wave of its name for the targets that wave holds, and for every
 * other target the first base wave holding it.
 */
function mergedAt(
  waves: readonly Wave[],
  name: string,
  targets: readonly string[],
  first: ReadonlyMap<string, number>,
): Omit<MergedWaves, "why"> | undefined {
  const named = waves.find((w) => w.name === name);
  const own = new Set(named?.runs.map((run) => run.target));
  const standsFor = new Map<number, string[]>();
  if (named) standsFor.set(named.k, []);
  for (const target of targets) {
    if (own.has(target)) continue;
    const k = first.get(target);
    if (k === undefined) continue;
    standsFor.set(k, [...standsFor.get(k) ?? [], target]);
  }
  if (standsFor.size < 2) return undefined;
  const ks = [...standsFor.keys()].sort((a, b) => a - b);
  const earlier = waves.find((w) => w.k === ks[0])!;
  const later = waves.find((w) => w.k === ks[ks.length - 1])!;
  return {
    merged: [earlier, later],
    targets: [...standsFor.get(later.k)!].sort(),
  };
}

/** The number of the first base wave that holds each target. */
function firstHolders(waves: readonly Wave[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const wave of waves) {
    for (const run of wave.runs) {
      if (!first.has(run.target)) first.set(run.target, wave.k);
    }
  }
  return first;
}

/**
 * The working copy's waves that stand for a base wave: the one of its name,
 * and any whose name no base wave has (new, or renamed) holding a target that
 * base wave is the first to hold. A wave that keeps a base wave's name stands
 * for that wave, whatever targets it shares.
 */
function matchingWaves(
  waves: readonly Wave[],
  base: Wave,
  first: ReadonlyMap<string, number>,
  baseNames: ReadonlySet<string>,
): Wave[] {
  return waves.filter((wave) =>
    wave.name === base.name ||
    (!baseNames.has(wave.name) &&
      wave.runs.some((run) => first.get(run.target) === base.k))
  );
}

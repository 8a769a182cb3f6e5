/**
 * Which waves of the working copy must be complete before a wave runs (SPEC.md
 * §4.11): the wave before it, and, since the order is policy, every wave that at
 * a base came before a base wave governing it (§4.4), matched in the working copy
 * by name (or, for a wave whose name no base wave has, by target). So moving
 * prod to position 1, or inserting a new first wave that holds a prod target,
 * never lets prod run before the waves the merged configuration put ahead of
 * it. A target stands here for the first base wave
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
 * The waves wave `k` waits for. Waves after it in the working copy are added
 * only when a base puts them first; waves before it are waited for through the
 * wave just before it, which waited for them in turn.
 * @param spec The working copy's spec.
 * @param k The wave's number.
 * @param targets Every target the wave holds.
 * @param bases The base commits and the spec at each.
 * @returns The waves to wait for, the wave before first, then the base waves
 *   no wave of the working copy stands for.
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
): (WaveToWaitFor | GoneWave)[] {
  const wave = waveAt(spec, k);
  const out: WaveToWaitFor[] = [];
  const gone: GoneWave[] = [];
  const previous = waveAt(spec, k - 1);
  if (previous) out.push({ wave: previous, why: "" });
  if (!wave) return out;
  const ref = { k, name: wave.name, targets };
  for (const { sha, spec: at } of bases) {
    if (at.status !== "parsed") continue;
    const first = firstHolders(at.spec.waves);
    const names = new Set(at.spec.waves.map((w) => w.name));
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
  return [...out, ...gone];
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

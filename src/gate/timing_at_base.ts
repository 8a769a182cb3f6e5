/**
 * A wave's timing at base (SPEC.md §19, §4.4), pure: its soak, freeze windows
 * and canary, each the strictest over every base a job reads the rules at and
 * every base wave that governs it (the longest soak, every window, the
 * smallest canary), and the runs of the base wave whose canary won, in its
 * order, which decide which runs are a canary. A base whose spec parses but where no wave governs the
 * wave gives the top level's timing there; an absent or broken spec gives
 * none (the first rollout has no rules to keep). The working copy's timing is
 * never read, so a change can neither shorten its own soak nor lift its own
 * freeze.
 * @module
 */

import type { FreezeWindow, Spec } from "../spec/types.ts";
import { governingWaves, type PolicyBase, type WaveRef } from "./base_spec.ts";

/** What times a wave, read at base. */
export interface TimingAtBase {
  /** The longest soak, in milliseconds; 0 for none. */
  soakMs: number;
  /** Where the longest soak was read: `at 1a2b3c4d5e6f, wave 3 "prod"`. */
  soakFrom?: string;
  /** Every freeze window of every read, each once. */
  freeze: FreezeWindow[];
  /** The smallest canary, when any read sets one. */
  canary?: number;
  /** Where the smallest canary was read, like `soakFrom`. */
  canaryFrom?: string;
  /**
   * The runs of the base wave whose canary won, in its order (none when it
   * was the top level's): which runs are a canary is read here, not in the
   * change's own run list.
   */
  order: string[];
}

/** One read's timing and where it was read. */
interface TimingRead {
  soakMs: number;
  freeze: readonly FreezeWindow[];
  canary?: number;
  from: string;
  /** The governing wave's targets, in its order (none for the top level). */
  runs: readonly string[];
}

/** The timing each governing wave at one base gives, or the top level's. */
function readsAt(
  base: { sha: string; spec: Spec },
  wave: WaveRef,
): TimingRead[] {
  const at = `at ${base.sha.slice(0, 12)}`;
  const governing = governingWaves(base.spec.waves, wave);
  if (governing.length === 0) {
    const { soakMs, freeze, canary } = base.spec;
    return [{
      soakMs,
      freeze,
      ...(canary === undefined ? {} : { canary }),
      from: `${at}, the top level`,
      runs: [],
    }];
  }
  return governing.map(({ wave }) => ({
    soakMs: wave.soakMs,
    freeze: wave.freeze,
    ...(wave.canary === undefined ? {} : { canary: wave.canary }),
    from: `${at}, wave ${wave.k} "${wave.name}"`,
    runs: wave.runs.map((run) => run.target),
  }));
}

/**
 * Reads a wave's soak, freeze windows and canary at every base, the strictest
 * of each winning.
 * @param bases The commits and the spec at each (the job's base first).
 * @param wave The wave of the change: number, name and every target it holds.
 * @returns The timing; none where no base has a spec that parses.
 * @example
 * ```ts
 * timingAtBase([{ sha, spec: { status: "absent" } }], { k: 2, name: "prod", targets: [] });
 * // { soakMs: 0, freeze: [], order: [] }
 * ```
 */
export function timingAtBase(
  bases: readonly PolicyBase[],
  wave: WaveRef,
): TimingAtBase {
  const timing: TimingAtBase = { soakMs: 0, freeze: [], order: [] };
  const seen = new Set<string>();
  for (const base of bases) {
    if (base.spec.status !== "parsed") continue;
    for (const read of readsAt({ sha: base.sha, spec: base.spec.spec }, wave)) {
      if (read.soakMs > timing.soakMs) {
        timing.soakMs = read.soakMs;
        timing.soakFrom = read.from;
      }
      if (
        read.canary !== undefined &&
        (timing.canary === undefined || read.canary < timing.canary)
      ) {
        timing.canary = read.canary;
        timing.canaryFrom = read.from;
        timing.order = [...read.runs];
      }
      for (const window of read.freeze) {
        const key = JSON.stringify(window);
        if (seen.has(key)) continue;
        seen.add(key);
        timing.freeze.push(window);
      }
    }
  }
  return timing;
}

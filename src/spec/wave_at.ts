/**
 * Wave k of a spec, rest waves included (SPEC.md §11): the spec's own waves by
 * number, and past them, when the last wave says `rest: true`, that wave again as
 * wave k. Pure.
 * @module
 */

import type { Spec, Wave } from "./types.ts";

/**
 * The wave numbered `k`: one of the spec's, or its rest wave again as wave k.
 * @param spec The spec.
 * @param k The wave's number, from 1.
 * @returns The wave, or `undefined` when the spec has no wave k.
 * @example
 * ```ts
 * // waves: dev, then tenants with rest: true
 * waveAt(spec, 5); // { ...tenants, k: 5 }
 * waveAt(spec, 0); // undefined
 * ```
 */
export function waveAt(spec: Pick<Spec, "waves">, k: number): Wave | undefined {
  if (!Number.isSafeInteger(k) || k < 1) return undefined;
  if (k <= spec.waves.length) return spec.waves[k - 1];
  const last = spec.waves[spec.waves.length - 1];
  return last?.rest ? { ...last, k } : undefined;
}

/**
 * Paces full garbage collections between the steps of a long wave. Every
 * finished step leaves its process's streams, pipes and buffers behind, and the
 * runtime frees most of that only at a full collection, which it schedules by
 * the size of the JavaScript heap alone: a wave of thousands of steps then holds
 * far more memory than it uses, more the longer it runs. Where the runtime
 * exposes `gc()` (the binary is built with `--expose-gc`; Node and Deno take the
 * same flag), one full collection runs before the first step and one after
 * every so many; elsewhere pacing does nothing. It decides nothing else.
 * @module
 */

/** A full, synchronous garbage collection. */
export type CollectGarbage = () => void;

/**
 * The runtime's `gc()`, when it exposes one.
 * @returns It, or `undefined`.
 */
export function exposedCollector(): CollectGarbage | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function" ? () => gc() : undefined;
}

/**
 * Makes the pacer a spawner calls before it starts each step: it collects
 * before the first step (what setting the job up left is freed before the
 * wave's steps need memory) and before every `every`-th one after it.
 * @param every Steps between two collections; 0 turns pacing off.
 * @param collect The collection. @default {the runtime's `gc()`, if any}
 * @returns The pacer.
 * @example
 * ```ts
 * let collections = 0;
 * const beforeStep = paceCollections(2, () => collections++);
 * for (let step = 0; step < 5; step++) beforeStep();
 * collections; // 3: before steps 1, 3 and 5
 * ```
 */
export function paceCollections(
  every: number,
  collect: CollectGarbage | undefined = exposedCollector(),
): () => void {
  if (every <= 0 || collect === undefined) return () => {};
  let steps = 0;
  return () => {
    if (steps++ % every === 0) collect();
  };
}

/**
 * Paces full garbage collections while a wave's steps run. Every finished step
 * leaves its process's streams, pipes and buffers behind, and every read of a
 * step's output a fresh buffer; the runtime frees most of that only at a full
 * collection, which it schedules by the size of the JavaScript heap alone, so
 * a wave of thousands of steps, or a step that prints a lot, holds far more
 * memory than it uses, more the longer it runs. Where the runtime exposes
 * `gc()` (the binary is built with `--expose-gc`; Node and Deno take the same
 * flag), one full collection runs before the first step, then after every so
 * many steps and after every so many bytes of output; elsewhere pacing does
 * nothing. It decides nothing else.
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

/** How often to collect; 0 (or absent) turns that trigger off. */
export interface CollectEvery {
  /** Steps started between two collections. */
  steps?: number;
  /** Bytes of the steps' output read between two collections. */
  bytes?: number;
}

/** What a spawner tells the pacer. */
export interface CollectionPacer {
  /** A step is about to start. */
  beforeStep(): void;
  /** A step's output brought `bytes` more bytes. */
  read(bytes: number): void;
}

/**
 * Makes the pacer of one spawner: it collects before the first step (what
 * setting the job up left is freed before the steps need memory), before
 * every `every.steps`-th step after it, and once every `every.bytes` bytes of
 * output were read since the last collection.
 * @param every How often.
 * @param collect The collection. @default {the runtime's `gc()`, if any}
 * @returns The pacer.
 * @example
 * ```ts
 * let collections = 0;
 * const pacer = paceCollections({ steps: 2, bytes: 100 }, () => collections++);
 * for (let step = 0; step < 5; step++) pacer.beforeStep();
 * collections; // 3: before steps 1, 3 and 5
 * pacer.read(60);
 * pacer.read(60);
 * collections; // 4
 * ```
 */
export function paceCollections(
  every: CollectEvery,
  collect: CollectGarbage | undefined = exposedCollector(),
): CollectionPacer {
  const steps = every.steps ?? 0;
  const bytes = every.bytes ?? 0;
  let started = 0;
  let read = 0;
  return {
    beforeStep() {
      if (steps > 0 && collect && started++ % steps === 0) collect();
    },
    read(count) {
      if (bytes <= 0 || !collect) return;
      read += count;
      if (read < bytes) return;
      read = 0;
      collect();
    },
  };
}

/**
 * Paces full garbage collections while a wave's steps run. Every finished step
 * leaves its process's streams, pipes and buffers behind, and every read of a
 * step's output a fresh buffer; the runtime frees most of that only at a full
 * collection, which it schedules by the size of the JavaScript heap alone, so
 * a wave of thousands of steps, or a step that prints a lot, holds far more
 * memory than it uses, more the longer it runs. Where the runtime exposes
 * `gc()` (the binary is built with `--expose-gc`; Node and Deno take the same
 * flag), one full collection runs after every so many steps and after every
 * so many bytes of output; elsewhere pacing does nothing. (Not before the
 * first step: a collection costs a small job more time than its whole setup
 * left to free, and a large one's setup ends with a stage that collects.) Between steps a large wave builds text in one go (a line per run
 * in its log, its decision record): bun frees the strings of a synchronous
 * stretch only at a collection, so the text built is counted too, and
 * collected after every so many characters. It decides nothing else.
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
  /** Characters of text built (logged, written to a record) between two collections. */
  chars?: number;
  /** Runs a stage must have handled for its end to collect. */
  stageRuns?: number;
}

/** What the spawner, the log and the job's stages tell the pacer. */
export interface CollectionPacer {
  /** A step is about to start. */
  beforeStep(): void;
  /** A step's output brought `bytes` more bytes. */
  read(bytes: number): void;
  /** The job built `chars` more characters of text: a log line, a piece of a record. */
  built(chars: number): void;
  /**
   * A stage of the job that handled `runs` runs ended (its plans read, its
   * decision's digest made, its runs applied): when they are many, collect
   * now, so that what the stage built for each run and dropped is freed
   * before the next stage builds its own.
   * @param runs The runs the stage handled.
   */
  settle(runs: number): void;
}

/**
 * Makes the pacer of a process: it collects before every `every.steps`-th
 * step after the first (step `every.steps + 1`, …), once every `every.bytes` bytes of
 * output were read since the last such collection, and once every
 * `every.chars` characters of text were built since the last such one; and
 * when a stage of at least `every.stageRuns` runs ends.
 * @param every How often.
 * @param collect The collection. @default {the runtime's `gc()`, if any}
 * @returns The pacer.
 * @example
 * ```ts
 * let collections = 0;
 * const pacer = paceCollections({ steps: 2, bytes: 100 }, () => collections++);
 * for (let step = 0; step < 5; step++) pacer.beforeStep();
 * collections; // 2: before steps 3 and 5
 * pacer.read(60);
 * pacer.read(60);
 * collections; // 3
 * ```
 */
export function paceCollections(
  every: CollectEvery,
  collect: CollectGarbage | undefined = exposedCollector(),
): CollectionPacer {
  const steps = every.steps ?? 0;
  const stageRuns = every.stageRuns ?? 0;
  let started = 0;
  const read = counter(every.bytes ?? 0, collect);
  const built = counter(every.chars ?? 0, collect);
  return {
    beforeStep() {
      if (steps > 0 && collect && started++ % steps === 0 && started > 1) {
        collect();
      }
    },
    read,
    built,
    settle(runs) {
      if (stageRuns > 0 && runs >= stageRuns) collect?.();
    },
  };
}

/** Collects once every `limit` of what it is told about; 0 turns it off. */
function counter(
  limit: number,
  collect: CollectGarbage | undefined,
): (count: number) => void {
  let seen = 0;
  return (count) => {
    if (limit <= 0 || !collect) return;
    seen += count;
    if (seen < limit) return;
    seen = 0;
    collect();
  };
}

/**
 * Hands on text in pieces, telling the pacer of each (a record of a large
 * wave, written in pieces, is then collected as it is written).
 * @param pieces The text, in pieces.
 * @param pacer The pacer, if any.
 * @returns The same pieces.
 */
export function* pacedPieces(
  pieces: Iterable<string>,
  pacer: CollectionPacer | undefined,
): Generator<string> {
  for (const piece of pieces) {
    yield piece;
    pacer?.built(piece.length);
  }
}

/**
 * A small scheduler: runs async tasks with at most N at once and reports their
 * results in input order. New starts can be stopped (by a task, for
 * `onFailure: stop`, by an abort signal, on an interrupt, or by a check asked
 * before each start); tasks never started are reported as untried. It knows nothing about steps or waves.
 * @module
 */

/** The outcome of one item: its task's value, or `untried` when it never started. */
export type Settled<T> =
  | { status: "done"; value: T }
  | { status: "untried" };

/** Handed to each task, to stop the starts of the remaining items. */
export interface TaskControl {
  /** Starts no further task; running ones go on and finish. */
  stop(): void;
  /** Whether starts were stopped (by a task, a thrown error or the signal). */
  readonly stopped: boolean;
}

/** Options of {@linkcode runLimited}. */
export interface RunLimitedOptions {
  /** When aborted, no further task starts (running ones finish). @default {none} */
  signal?: AbortSignal;
  /**
   * Asked before each start: `false` starts no further task, as `stop()`
   * does (running ones finish). @default {always true}
   */
  mayStart?: () => boolean;
}

const UNTRIED: Settled<never> = Object.freeze({ status: "untried" });

/**
 * Runs `task` for every item, at most `limit` at a time, starting them in input
 * order, and waits for every started one.
 *
 * Contract: results are in input order whatever order tasks finish in; once
 * `control.stop()` was called, `signal` was aborted or a task threw, no further
 * task starts and the unstarted items are `untried`. If a task threw, the first
 * error is rethrown after every started task has settled.
 * @param items The items, in order.
 * @param limit How many tasks may run at once (an integer ≥ 1).
 * @param task Runs one item; gets its index and the control.
 * @param options An abort signal.
 * @returns One outcome per item, in input order.
 * @throws {RangeError} When `limit` is not an integer ≥ 1.
 * @throws {unknown} The first error a task threw.
 * @example
 * ```ts
 * const out = await runLimited([3, 1, 2], 2, async (n, _i, control) => {
 *   if (n === 1) control.stop();
 *   return n * 10;
 * });
 * // [{ status: "done", value: 30 }, { status: "done", value: 10 }, { status: "untried" }]
 * ```
 */
export async function runLimited<I, T>(
  items: readonly I[],
  limit: number,
  task: (item: I, index: number, control: TaskControl) => Promise<T>,
  options: RunLimitedOptions = {},
): Promise<Settled<T>[]> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(
      `Cannot run tasks: limit must be an integer of at least 1, got ${limit}`,
    );
  }
  // The values alone while the tasks run; the outcomes are made at the end
  // (a wave of 30,000 runs would otherwise hold an outcome object per run,
  // spread among everything its steps left behind).
  const values: T[] = [];
  let stopped = false;
  let failed: { error: unknown } | undefined;
  const control: TaskControl = {
    stop: () => {
      stopped = true;
    },
    get stopped() {
      return stopped || (options.signal?.aborted ?? false);
    },
  };
  let next = 0;
  const worker = async () => {
    while (next < items.length && !control.stopped) {
      if (options.mayStart && !options.mayStart()) {
        stopped = true;
        break;
      }
      const index = next++;
      try {
        values[index] = await task(items[index], index, control);
      } catch (error) {
        failed ??= { error };
        stopped = true;
      }
    }
  };
  const workers = Math.min(limit, items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (failed) throw failed.error;
  // Items start in order, and every started one finished: the first `next`.
  return items.map((_, index) =>
    index < next ? { status: "done", value: values[index] } : UNTRIED
  );
}

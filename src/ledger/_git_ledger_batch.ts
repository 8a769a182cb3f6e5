/**
 * Group commit for the git ledger: writes that arrive while a publish is running
 * wait and go out together in the next one, so one process makes one commit and
 * one push for many concurrent writes instead of racing itself. Private to the
 * git ledger; it knows nothing of git.
 * @module
 */

/** Queues items and hands them to `flush` in batches, one batch at a time. */
export interface Batcher<T> {
  /**
   * Adds an item to the next batch.
   * @returns Settles when the batch holding the item was flushed: resolves when
   * `flush` resolved, rejects with `flush`'s error (every item of that batch).
   */
  add(item: T): Promise<void>;
}

/**
 * Makes a batcher: the first item starts a flush once the current synchronous
 * code is done (a microtask later, so items added together share it); items added
 * while a flush runs form the next batch, flushed as soon as the running one ends.
 * @param flush Publishes one batch (never called with an empty one).
 * @returns The batcher.
 * @example
 * ```ts
 * const batches: number[][] = [];
 * const b = batcher<number>(async (items) => { batches.push([...items]); });
 * await Promise.all([b.add(1), b.add(2), b.add(3)]); // batches: [[1, 2, 3]]
 * ```
 */
export function batcher<T>(
  flush: (items: readonly T[]) => Promise<void>,
): Batcher<T> {
  let queue: { item: T; done: () => void; fail: (e: unknown) => void }[] = [];
  let running = false;
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await flush(batch.map((entry) => entry.item));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.fail(error);
      }
    }
    running = false;
  };
  return {
    add(item) {
      const settled = new Promise<void>((done, fail) => {
        queue.push({ item, done, fail });
      });
      if (!running) {
        running = true;
        queueMicrotask(drain);
      }
      return settled;
    },
  };
}

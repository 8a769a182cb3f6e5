/**
 * A manual `Clock` for tests: time moves only when the test ticks it, and due
 * callbacks run in time order, so heartbeat and timeout tests never sleep.
 * @module
 */

import type { Clock, TimerHandle } from "../../src/clock.ts";

/** A clock whose time the test moves. */
export interface ManualClock extends Clock {
  /**
   * Moves time forward by `ms`, running every callback that falls due, in order
   * (each at its own due time), and lets promise callbacks settle in between.
   */
  tick(ms: number): Promise<void>;
  /** How many callbacks are scheduled and not yet run or cleared. */
  pending(): number;
}

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

/**
 * Creates a manual clock.
 * @param start The initial time, in milliseconds since the epoch.
 * @returns The clock.
 */
export function manualClock(start = 0): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return {
    now: () => now,
    setTimeout(callback: () => void, ms: number): TimerHandle {
      const id = nextId++;
      timers.set(id, { id, due: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle: TimerHandle): void {
      timers.delete(handle as number);
    },
    async tick(ms: number): Promise<void> {
      const end = now + ms;
      await settle();
      while (true) {
        const due = [...timers.values()]
          .filter((t) => t.due <= end)
          .sort((a, b) => a.due - b.due || a.id - b.id)[0];
        if (!due) break;
        timers.delete(due.id);
        now = due.due;
        due.callback();
        await settle();
      }
      now = end;
      await settle();
    },
    pending: () => timers.size,
  };
}

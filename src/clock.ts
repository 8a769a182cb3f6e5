/**
 * The time seam: a `Clock` tells the time and schedules callbacks, so heartbeats,
 * timeouts, retries and timestamps can be tested by ticking a manual clock instead
 * of sleeping. `realClock` is the default.
 * @module
 */

/** A handle returned by {@linkcode Clock.setTimeout}. */
export type TimerHandle = unknown;

/** Tells the time and schedules callbacks. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Calls `callback` after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a scheduled callback; a handle that already fired is ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** The wall clock and the runtime's timers. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) =>
    clearTimeout(handle as ReturnType<typeof setTimeout>),
};

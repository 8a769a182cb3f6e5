/**
 * The two timers of a running step (SPEC.md §7): a heartbeat printed after each
 * quiet `heartbeatMs`, re-armed rather than set per chunk of output, and the
 * timeout that stops it. Private to `src/exec/`.
 * @module
 */

import type { Clock, TimerHandle } from "../clock.ts";
import type { StepConsole } from "../console/step_console.ts";

/** The heartbeat and timeout timers of one step. */
export interface StepTimers {
  /** Notes that the step printed something (resets the heartbeat). */
  heard(): void;
  /** Cancels both timers. */
  stop(): void;
  /** Whether the timeout fired. */
  timedOut(): boolean;
}

/**
 * Starts the heartbeat and the timeout; `onTimeout` stops the step.
 * @param options The step's `heartbeatMs` (default 60 s; 0: none) and
 *   `timeoutMs` (default 0: none).
 * @param clock The clock.
 * @param startedAt When the step started.
 * @param out Where heartbeats are printed.
 * @param onTimeout Stops the step.
 * @returns The timers.
 */
export function startTimers(
  options: { heartbeatMs?: number; timeoutMs?: number },
  clock: Clock,
  startedAt: number,
  out: StepConsole,
  onTimeout: () => void,
): StepTimers {
  const heartbeatMs = options.heartbeatMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 0;
  let lastHeard = startedAt;
  let heartbeat: TimerHandle;
  let timeout: TimerHandle;
  let timedOut = false;
  let stopped = false;
  // One pending heartbeat timer, re-armed for the rest of the quiet period, so
  // output costs a clock read instead of a timer per chunk.
  const beat = (delay: number) => {
    heartbeat = clock.setTimeout(() => {
      if (stopped) return;
      const now = clock.now();
      const quiet = now - lastHeard;
      if (quiet < heartbeatMs) return beat(heartbeatMs - quiet);
      out.heartbeat(now - startedAt);
      lastHeard = now;
      beat(heartbeatMs);
    }, delay);
  };
  if (heartbeatMs > 0) beat(heartbeatMs);
  if (timeoutMs > 0) {
    timeout = clock.setTimeout(() => {
      if (stopped) return;
      timedOut = true;
      onTimeout();
    }, timeoutMs);
  }
  return {
    heard: () => {
      lastHeard = clock.now();
    },
    stop: () => {
      stopped = true;
      if (heartbeat !== undefined) clock.clearTimeout(heartbeat);
      if (timeout !== undefined) clock.clearTimeout(timeout);
    },
    timedOut: () => timedOut,
  };
}

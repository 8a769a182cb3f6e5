/**
 * The one way chant-wave stops a running step: TERM to its process group, a grace
 * period, then KILL. Used by a step's timeout (`run_step.ts`) and by interrupts
 * (`interrupts.ts`). It signals and waits; it does not decide when to stop.
 * @module
 */

import type { Clock } from "../clock.ts";
import type { StopSignal } from "./spawner.ts";

/** How long a stopped step gets between TERM and KILL by default. */
export const DEFAULT_KILL_GRACE_MS = 5_000;

/** A step that is running, as the stopping code sees it. */
export interface RunningStep {
  /** Signals the step's whole process group; a group already gone is ignored. */
  kill(signal: StopSignal): void;
  /** Settles once the step's process has exited and its output has closed. */
  readonly finished: Promise<unknown>;
}

/**
 * Stops a step: sends SIGTERM to its process group, waits until it has finished
 * or `graceMs` has passed, then sends SIGKILL to the group (which also ends any
 * process of the group still running once the step's own process is gone, such
 * as a grandchild that ignores TERM), and waits for the step to finish, at most
 * another `graceMs`.
 * @param step The step.
 * @param clock The clock that times the grace period.
 * @param graceMs Milliseconds between TERM and KILL.
 * @default {5000} for `graceMs`
 * @returns Whether the step finished (false when it outlived the last wait, e.g.
 * because a process outside the group keeps its output open).
 */
export async function stopStep(
  step: RunningStep,
  clock: Clock,
  graceMs: number = DEFAULT_KILL_GRACE_MS,
): Promise<boolean> {
  const finished = step.finished.then(() => true, () => true);
  step.kill("SIGTERM");
  await within(finished, clock, graceMs);
  step.kill("SIGKILL");
  return await within(finished, clock, graceMs);
}

/** Resolves with `promise`'s value, or `false` after `ms`. */
function within(
  promise: Promise<boolean>,
  clock: Clock,
  ms: number,
): Promise<boolean> {
  let handle: unknown;
  const timeout = new Promise<boolean>((resolve) => {
    handle = clock.setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise, timeout]).finally(() =>
    clock.clearTimeout(handle)
  );
}

/**
 * How an apply command asks for a new plan (SPEC.md §11): it exits 75 (EX_TEMPFAIL
 * of sysexits.h) on its own, not killed by a timeout or an interrupt. Pure.
 * @module
 */

import type { StepResult } from "../exec/run_step.ts";

/** The exit code with which an apply command asks to plan the wave again. */
export const REPLAN_EXIT_CODE = 75;

/**
 * Whether a finished apply step asks for the wave to be planned again.
 * @param step How the step ended.
 * @returns True when it exited 75 by itself.
 * @example
 * ```ts
 * asksReplan({ exitCode: 75, ok: false, timedOut: false, interrupted: false, tail: [] } as StepResult); // true
 * ```
 */
export function asksReplan(
  step: Pick<StepResult, "exitCode" | "timedOut" | "interrupted">,
): boolean {
  return step.exitCode === REPLAN_EXIT_CODE && !step.timedOut &&
    !step.interrupted;
}

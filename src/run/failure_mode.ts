/**
 * What a job does after a failed apply (SPEC.md §4.7, §19): the spec's
 * `onFailure` when it sets one (the wave's, else the top level's), else `stop`
 * when a run the job applies has a destructive plan, else `continue`. Pure;
 * stopping the applies is `apply_runs.ts`'s, and the log line the apply
 * stage's.
 * @module
 */

import type { OnFailure } from "../spec/types.ts";

/** How a job goes on after a failed apply, and why when the spec did not say. */
export interface FailureMode {
  onFailure: OnFailure;
  /** Set when the spec sets no `onFailure` and a plan is destructive: the reason for `stop`. */
  because?: string;
}

/**
 * The job's `onFailure`: as written, else `stop` for a destructive plan.
 * @param written The wave's `onFailure`, else the top level's, if either sets one.
 * @param plans The plans of the runs the job applies.
 * @returns The mode, with the reason when it stops by default.
 * @example
 * ```ts
 * failureMode(undefined, [{ destructive: true }]);
 * // { onFailure: "stop", because: "the default for a destructive plan" }
 * failureMode("continue", [{ destructive: true }]); // { onFailure: "continue" }
 * failureMode(undefined, [{ destructive: false }]); // { onFailure: "continue" }
 * ```
 */
export function failureMode(
  written: OnFailure | undefined,
  plans: readonly { destructive: boolean }[],
): FailureMode {
  if (written !== undefined) return { onFailure: written };
  return plans.some((plan) => plan.destructive)
    ? { onFailure: "stop", because: "the default for a destructive plan" }
    : { onFailure: "continue" };
}

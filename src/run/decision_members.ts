/**
 * A wave's planned runs as the members of its decision (SPEC.md §4.6): target,
 * plan digest, op, and the plan's flags and summary. Pure.
 * @module
 */

import type { DecisionMember } from "../jobs/decision.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import { keepChanges } from "../plan/plan_changes.ts";

/**
 * The decision members of planned runs, in the same order.
 * @param planned The planned runs.
 * @returns One member per run; `destructive` and `empty` only when true.
 * @example
 * ```ts
 * membersOf([{ target: "eu", run: { target: "eu", op: "tf" }, planPath: "p",
 *   plan: { planDigest: d, destructive: false, empty: true } }]);
 * // [{ target: "eu", planDigest: d, op: "tf", empty: true }]
 * ```
 */
export function membersOf(planned: readonly PlannedRun[]): DecisionMember[] {
  return planned.map(({ run, plan }) => ({
    target: run.target,
    planDigest: plan.planDigest,
    op: run.op,
    ...(plan.destructive ? { destructive: true } : {}),
    ...(plan.empty ? { empty: true } : {}),
    ...(plan.summary === undefined ? {} : { summary: plan.summary }),
    ...keepChanges(plan.changes),
  }));
}

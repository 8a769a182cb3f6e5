/**
 * A wave's planned runs as the members of its decision (SPEC.md §4.6): target,
 * plan digest, op, and the plan's flags and summary. Pure.
 * @module
 */

import type { DecisionMember } from "../gate/decision.ts";
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
  return planned.map(({ run, plan }) => {
    // Set one by one, in the record's order: spreading the optional fields
    // would make and drop an object each, megabytes for a large wave.
    const member: DecisionMember = {
      target: run.target,
      planDigest: plan.planDigest,
      op: run.op,
    };
    if (plan.destructive) member.destructive = true;
    if (plan.empty) member.empty = true;
    if (plan.summary !== undefined) member.summary = plan.summary;
    if (plan.changes !== undefined) {
      Object.assign(member, keepChanges(plan.changes));
    }
    return member;
  });
}

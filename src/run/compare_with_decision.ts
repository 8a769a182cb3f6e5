/**
 * A share or group job applies only what was decided (SPEC.md §4.7): each run
 * planned again must have the decided plan (same digest, same flags, and the
 * changes the rules over them judged, §18), or it is
 * refused as moved; but a run whose fresh plan is empty because its decided
 * plan was applied already (§10, `already_applied.ts`) is kept, to be skipped
 * as `already applied`. For plans of live state (sqitch, §17), a run whose
 * fresh plan is the decided one, not empty, and applied already under the
 * decision's approval is refused too: its target moved back since it applied.
 * Pure but for the log lines it writes.
 * @module
 */

import { type Line, styled } from "../console/colour.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import type { Decision, DecisionMember } from "../gate/decision.ts";
import { movedBackMessage } from "../gate/gate_messages.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import { keepChanges, type KeptChanges } from "../plan/plan_changes.ts";

/** The plan's digest and flags, as a refusal names them. */
function describePlan(
  plan: Pick<DecisionMember, "planDigest" | "destructive" | "empty">,
): string {
  const flags = [
    plan.destructive ? "destructive" : "",
    plan.empty ? "empty" : "",
  ].filter(Boolean);
  return flags.length
    ? `${plan.planDigest} (${flags.join(", ")})`
    : plan.planDigest;
}

/** What the rules over a plan read of its kept changes (SPEC.md §18). */
function changesKey(kept: KeptChanges): string {
  return JSON.stringify([
    (kept.changes ?? []).map((
      c,
    ) => [c.address, c.action, c.attributes ?? null]),
    kept.moreChanges ?? 0,
  ]);
}

function sameChanges(decided: KeptChanges, now: KeptChanges): boolean {
  return changesKey(decided) === changesKey(now);
}

/**
 * Splits the re-planned runs into those whose plan is the decided one (same
 * digest, same destructive and empty flags, the same changes as the rules
 * over them read: address, action and attribute paths) and those whose plan moved; logs a
 * refusal for each moved one, naming the decided and the fresh plan. A run
 * named in `already` whose fresh plan is empty counts as unmoved: nothing of
 * it applies.
 * @param planned The runs planned now.
 * @param decision The decision the job applies under.
 * @param log The log (`() => {}` to only split).
 * @param already The targets already applied (SPEC.md §10).
 * @returns The unmoved runs and the targets that moved.
 */
export function compareWithDecision(
  planned: readonly PlannedRun[],
  decision: Decision,
  log: (line: Line) => void,
  already: ReadonlySet<string> = new Set(),
): { unmoved: PlannedRun[]; moved: string[] } {
  const decided = new Map(
    decision.members.map((member) => [member.target, member]),
  );
  const unmoved: PlannedRun[] = [];
  const moved: string[] = [];
  for (const run of planned) {
    const before = decided.get(run.target);
    const now = run.plan;
    if (
      (now.empty && already.has(run.target)) ||
      (before?.planDigest === now.planDigest &&
        (before.destructive ?? false) === now.destructive &&
        (before.empty ?? false) === now.empty &&
        sameChanges(before, keepChanges(now.changes)))
    ) {
      unmoved.push(run);
      continue;
    }
    moved.push(run.target);
    log([
      styled("refused", "refused:"),
      ` ${run.target}: its plan moved since wave ${decision.wave} was decided; ` +
      `decided ${
        before ? describePlan(before) : "nothing (the decision lacks this run)"
      }, planned now ${describePlan(now)}${
        before?.planDigest === now.planDigest
          ? "; the same digest, with other changes or flags than the decision lists"
          : ""
      }`,
    ]);
  }
  return { unmoved, moved };
}

/**
 * Refuses the runs whose target moved back since their plan applied (SPEC.md
 * §17): with plans of live state, a non-empty fresh plan that is the decided
 * one and already applied under the decision's approval means what applied is
 * gone (reverted by hand); the approval covered its one apply, so the run
 * waits for a new approval instead of being skipped as `already applied`.
 * Logs a refusal for each.
 * @param unmoved The runs whose fresh plan is the decided one.
 * @param gate The gate as it stood approved for the decision, if it did.
 * @param liveState Whether the plans are of live state (`plansLiveState`).
 * @param log The log.
 * @returns The runs that may go on, and the targets that moved back.
 */
export function refuseMovedBack(
  unmoved: readonly PlannedRun[],
  gate: GateDecision | undefined,
  liveState: boolean,
  log: (line: Line) => void,
): { unmoved: PlannedRun[]; movedBack: string[] } {
  if (!liveState || gate?.status !== "approved") {
    return { unmoved: [...unmoved], movedBack: [] };
  }
  const kept: PlannedRun[] = [];
  const movedBack: string[] = [];
  for (const run of unmoved) {
    const plan = { target: run.target, planDigest: run.plan.planDigest };
    if (run.plan.empty || gate.claims.standing(plan).kind !== "applied") {
      kept.push(run);
      continue;
    }
    movedBack.push(run.target);
    log([
      styled("refused", "refused:"),
      ` ${movedBackMessage(plan, gate.approval)}`,
    ]);
  }
  return { unmoved: kept, movedBack };
}

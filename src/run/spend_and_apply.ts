/**
 * The apply phase shared by whole-wave, share and group jobs (SPEC.md §4.7): spend
 * the decision's approval when it has one, then apply, logging failures with the
 * tails of their output and the runs left untried.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { type ApplyOutcome, applyRuns } from "./apply_runs.ts";
import type { Decision } from "./decision.ts";
import { logFailures } from "./job_result.ts";
import type { PlanContext, PlannedRun } from "./plan_runs.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import type { RunIo } from "./run_io.ts";
import { spendApproval } from "./spend_approval.ts";

/**
 * Spends the decision's approval when the wave is gated, then applies `planned`.
 * @param gated Whether the policy at base needs an approval for this decision
 *   (then the decision is `approved` and its approval must still stand).
 * @returns What applied, or `waiting` when the approval no longer stands for this
 *   decision (revoked, or spent by another decision); then nothing was applied.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function spendAndApply(
  spec: Spec,
  wave: Wave,
  decision: Decision,
  gated: boolean,
  planned: readonly PlannedRun[],
  context: Omit<PlanContext, "discover">,
  io: RunIo,
): Promise<ApplyOutcome | "waiting"> {
  const log = lineLog(io.stderr);
  if (planned.length > 0 && gated) {
    const spend = await spendApproval(decision, io);
    if (!spend.spent) {
      log(
        `gate ${decision.gate}: the approval no longer stands for this decision; nothing applied`,
      );
      for (const reason of spend.reasons) log(`  ${reason}`);
      return "waiting";
    }
  }
  const applied = await applyRuns(spec, wave, planned, context, io);
  throwIfInterrupted(io);
  logFailures(applied.failed, io.stderr);
  if (applied.untried.length) {
    log(
      `untried after a failure (onFailure: stop): ${
        applied.untried.join(", ")
      }`,
    );
  }
  log(
    `applied ${
      countOf(applied.applied.length, "run")
    } of wave ${wave.k} "${wave.name}"`,
  );
  return applied;
}

/**
 * Counts a noun: `1 run`, `2 runs`.
 * @example
 * ```ts
 * countOf(1, "run"); // "1 run"
 * ```
 */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The line a dry run ends with: what it would apply and under which approval.
 * @example
 * ```ts
 * dryRunLine(decision, 2); // "dry run: would apply 2 runs under the approval 3f… by ann; recorded nothing"
 * ```
 */
export function dryRunLine(decision: Decision, runs: number): string {
  const using = decision.status === "approved"
    ? ` under the approval ${decision.approvalId} by ${decision.approvedBy}`
    : "";
  return `dry run: would apply ${
    countOf(runs, "run")
  }${using}; recorded nothing`;
}

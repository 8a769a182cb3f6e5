/**
 * What a dry run's pass would apply (SPEC.md §4.9), in place of the claim and
 * apply stages, recording nothing: the holds at before-apply are checked (a
 * real run would wait on them) but no command runs; the runs it would apply
 * and those it would skip (empty, or applied already under the approval, as
 * the gate the job decided says) are logged, and the wave's canary runs,
 * which would apply first (§19), then its last line.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import type { Decision } from "../gate/decision.ts";
import type { Canary } from "../gate/canary_runs.ts";
import type { JobResult, SkippedRun } from "../jobs/job_result.ts";
import { membersOf } from "./decide_wave.ts";
import { passRuns } from "./replan_loop.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import type { WaveJob } from "./wave_job.ts";

/** What a dry run would apply: the decision, the gate, the planned runs. */
export interface PreviewInput {
  decision: Decision;
  /** The gate as the job decided it; `undefined` when no approval is needed. */
  gate: GateDecision | undefined;
  /** The runs it would apply (planned; in share jobs, unmoved). */
  planned: readonly PlannedRun[];
  /** The targets whose empty plan an earlier job applied (SPEC.md §10). */
  alreadyApplied: ReadonlySet<string>;
  /** The wave's canary, whose runs would apply first (SPEC.md §19). */
  canary?: Canary;
}

/**
 * Previews a pass's apply.
 * @param job The wave job (its hooks, its log).
 * @param input The decision, the gate and the runs.
 * @param result The job's result so far.
 * @returns The result: exit 3 when a hold is held, else with the runs it would skip.
 */
export async function previewApply(
  job: WaveJob,
  input: PreviewInput,
  result: JobResult,
): Promise<JobResult> {
  const { decision, planned } = input;
  const held = await job.hooks.run("before-apply", {
    runs: planned.map((p) => p.run),
    members: membersOf(planned),
    holdsOnly: true,
  });
  if (held) return { ...result, ...held };
  const preview = wouldApply(input);
  const log = lineLog(job.io.stderr);
  for (const { target, reason } of preview.skipped) {
    log(`would skip: ${target}: ${reason}`);
  }
  const { canary } = input;
  if (canary) {
    log(
      `canary: ${canary.targets.join(", ")} would apply first (${canary.rule})`,
    );
  }
  log(dryRunLine(decision, preview.apply));
  return { ...result, skipped: preview.skipped };
}

/** How many runs would apply, and which would be skipped (empty, or applied already). */
function wouldApply(
  input: PreviewInput,
): { apply: number; skipped: SkippedRun[] } {
  const { runs, empty } = passRuns(
    { appliedInJob: new Map() },
    input.planned,
    input.alreadyApplied,
  );
  const skipped = [...empty];
  const { gate } = input;
  if (gate === undefined || runs.length === 0) {
    return { apply: runs.length, skipped };
  }
  if (gate.status === "waiting") return { apply: 0, skipped };
  let apply = 0;
  for (const run of runs) {
    const standing = gate.claims.standing({
      target: run.target,
      planDigest: run.plan.planDigest,
    });
    if (standing.kind === "applied") {
      skipped.push({ target: run.target, reason: "already applied" });
    } else apply++;
  }
  return { apply, skipped };
}

/** The line a dry run ends with: what it would apply and under which approval. */
function dryRunLine(decision: Decision, runs: number): string {
  const using = decision.status === "approved"
    ? ` under the approval ${decision.approvalId} by ${decision.approvedBy}`
    : "";
  return `dry run: would apply ${
    countOf(runs, "run")
  }${using}; recorded nothing`;
}

/**
 * The end of a pass and of a job (SPEC.md §4.7, §11): the before-apply hooks,
 * the apply stage (claims and outcomes under the approval, §10) over the plans
 * not applied in an earlier pass, or a dry run's preview of it; and after the
 * last pass the after-apply hooks, whose failure fails the job once the applies
 * are done.
 * @module
 */

import { RUN_FAILED, WAITING } from "../exit_codes.ts";
import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import {
  applyStage,
  type ApplyStageInput,
  previewApply,
} from "./apply_stage.ts";
import type { Decision, DecisionMember } from "../jobs/decision.ts";
import { membersOf } from "./decision_members.ts";
import type { GateJudge } from "../gate/gate_rules.ts";
import type { JobResult, SkippedRun } from "../jobs/job_result.ts";
import type { AppliedInJob, PassEnd } from "./replan_loop.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import type { WaveJob } from "./wave_job.ts";

/** What a pass applies: the decision, whether it is gated, the planned runs. */
export interface ApplyPassInput {
  decision: Decision;
  /** Whether the policy at base needs an approval for the decision. */
  gated: boolean;
  /** The runs to apply (planned; in share jobs, unmoved). */
  planned: readonly PlannedRun[];
  /** Judges the gate's approvals under the wave's rules at base. */
  judge: GateJudge;
  /** The job's runs refused (plan moved) and failed to plan, for the summary. */
  notApplied?: ApplyStageInput["notApplied"];
  /** The targets whose empty plan an earlier job applied (SPEC.md §10). */
  alreadyApplied?: ReadonlySet<string>;
}

/**
 * Runs the before-apply hooks, then applies the plans not applied in an earlier
 * pass, and notes what applied.
 * @param job The wave job.
 * @param input The decision and the runs.
 * @param appliedInJob What earlier passes applied; this pass adds to it.
 * @param result The job's result so far.
 * @returns `stop` when a hook stops the job or the approval no longer stands
 *   (exit 3), else `applied` with what applied, failed, was skipped and left
 *   untried, and the runs that ask for a new plan.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function applyPass(
  job: WaveJob,
  input: ApplyPassInput,
  appliedInJob: AppliedInJob,
  result: JobResult,
): Promise<PassEnd> {
  const { decision, planned } = input;
  const skipped: SkippedRun[] = [];
  const fresh = planned.filter(({ target, plan }) => {
    const before = appliedInJob.get(target) === plan.planDigest;
    if (before) skipped.push({ target, reason: "already applied" });
    return !before;
  });
  const members = membersOf(planned);
  const stop = await job.hooks.run("before-apply", {
    runs: planned.map((p) => p.run),
    members,
  });
  if (stop) return { end: "stop", result: { ...result, ...stop } };
  const { spec } = job.input;
  const applied = await applyStage({
    spec,
    wave: job.wave,
    decision,
    gated: input.gated,
    planned: fresh,
    judge: input.judge,
    context: job.context,
    ...(job.input.ledgerArg === undefined
      ? {}
      : { ledgerArg: job.input.ledgerArg }),
    ...(input.notApplied ? { notApplied: input.notApplied } : {}),
    ...(input.alreadyApplied ? { alreadyApplied: input.alreadyApplied } : {}),
  }, job.io);
  if (applied === "waiting") {
    return { end: "stop", result: { ...result, exitCode: WAITING } };
  }
  const log = lineLog(job.io.stderr);
  for (const { target, reason } of skipped) {
    log(`skipped: ${target}: ${reason}`);
  }
  for (const target of applied.replan) {
    log(`${target}: its apply asks for a new plan (exit 75)`);
  }
  const digests = new Map(planned.map((p) => [p.target, p.plan.planDigest]));
  for (const target of applied.applied) {
    appliedInJob.set(target, digests.get(target)!);
  }
  return {
    end: "applied",
    result: {
      ...result,
      applied: applied.applied,
      failed: [...result.failed, ...applied.failed.map((f) => f.target)],
      moved: [...result.moved, ...applied.moved.map((m) => m.target)],
      failures: [
        ...result.failures ?? [],
        ...applied.failed.map(({ target, message }) => ({ target, message })),
      ],
      untried: applied.untried,
      skipped: [...skipped, ...applied.skipped],
    },
    replan: applied.replan,
    members,
  };
}

/**
 * What a dry run's pass would apply (SPEC.md §4.9), recording nothing: the holds
 * at before-apply are checked (a real run would wait on them) but no command
 * runs; then the runs it would apply and skip are logged, and its last line.
 * @param job The wave job.
 * @param input The decision and the runs.
 * @param result The job's result so far.
 * @returns The result: exit 3 when a hold is held, else with the runs it would skip.
 */
export async function previewPass(
  job: WaveJob,
  input: ApplyPassInput,
  result: JobResult,
): Promise<JobResult> {
  const { decision, planned, gated, judge, alreadyApplied } = input;
  const held = await job.hooks.run("before-apply", {
    runs: planned.map((p) => p.run),
    members: membersOf(planned),
    holdsOnly: true,
  });
  if (held) return { ...result, ...held };
  const { spec } = job.input;
  const preview = await previewApply(
    {
      spec,
      wave: job.wave,
      decision,
      gated,
      planned,
      judge,
      ...(alreadyApplied ? { alreadyApplied } : {}),
    },
    job.io,
  );
  const log = lineLog(job.io.stderr);
  for (const { target, reason } of preview.skipped) {
    log(`would skip: ${target}: ${reason}`);
  }
  log(dryRunLine(decision, preview.apply));
  return { ...result, skipped: preview.skipped };
}

/**
 * Runs the after-apply hooks once the applies are done; a failed one fails the
 * job (the hook stage says which and why).
 * @param job The wave job.
 * @param result The job's result after its last pass.
 * @param members The last pass's plans, for `{plans}`.
 * @returns The result, with exit 1 when an after-apply hook failed.
 */
export async function afterApply(
  job: WaveJob,
  result: JobResult,
  members: readonly DecisionMember[],
): Promise<JobResult> {
  const stop = await job.hooks.run("after-apply", {
    runs: members.map(({ target, op }) => ({ target, op })),
    members,
  });
  return stop ? { ...result, exitCode: RUN_FAILED } : result;
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

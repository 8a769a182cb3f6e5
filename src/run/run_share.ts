/**
 * Share and group jobs (SPEC.md §4.7), as their stages: read the wave's decision,
 * check the order of waves, check the decision and its hooks against the spec at
 * base and the ledger (it travelled as an artifact), take this job's slice, then
 * in passes (§11: an apply may ask for a new plan) run the before-plan hooks,
 * re-plan the slice, run the after-plan hooks, refuse every run whose plan moved
 * since the decision (unless it plans empty because it was applied already,
 * §10), run the before-apply hooks, claim and apply the rest; then the
 * after-apply hooks and the wave outcome.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { lineLog, terminalLog } from "../console/line_log.ts";
import { OK, PLAN_MOVED, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { sliceShare } from "../jobs/slice_shares.ts";
import type { Run } from "../spec/types.ts";
import { afterApply, applyPass, previewPass } from "./apply_pass.ts";
import { countOf } from "../count_of.ts";
import { compareWithDecision } from "./compare_with_decision.ts";
import type { Decision } from "../jobs/decision.ts";
import { membersOf } from "./decision_members.ts";
import type { RunJobInput } from "./job_input.ts";
import { readJobBase } from "./job_base.ts";
import type { JobResult } from "../jobs/job_result.ts";
import { logFailures } from "./log_failures.ts";
import { checkOrder } from "./order_stage.ts";
import { planRuns } from "./plan_runs.ts";
import { readDecision } from "./read_decision.ts";
import { outcomeJobOf, recordWaveOutcome } from "./record_outcome.ts";
import { emptyRunsOf, findAlreadyApplied } from "./already_applied.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import { type AppliedInJob, type PassEnd, runPasses } from "./replan_loop.ts";
import type { RunIo } from "./run_io.ts";
import { sayWhatWaits } from "./say_what_waits.ts";
import { groupRuns } from "./select_job.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import { verifyDecision } from "./verify_decision.ts";
import type { GateJudge } from "../gate/gate_rules.ts";
import { verifyHooks } from "./verify_hooks.ts";
import { decideCommand } from "./next_steps.ts";
import { openWaveJob, type WaveJob } from "./wave_job.ts";

/**
 * Runs a share or group job.
 * @param input The job and its settings.
 * @param planRoot `.chant`, or a temporary directory for dry runs.
 * @param io The edges.
 * @returns The result: 0 applied, 1 a run or hook failed, 3 waiting, 4 a run moved.
 * @throws {InputError} When the decision is missing, unreadable or does not match
 *   the spec at base, its hooks or the ledger (exit 2).
 */
export async function runShare(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { spec, selection: { wave } } = input;
  const { decision, path } = await readDecision(spec.name, wave, io.cwd);
  const slice = sliceOf(input, decision);
  const result = startResult(input, decision, slice);
  const base = await readJobBase(input, io);
  if (await checkOrder(input, base, io) === "wait") {
    return { ...result, exitCode: WAITING };
  }
  if (decision.status === "waiting") {
    const waiting = await sayWhatWaits(decision, input, base, io);
    return {
      ...result,
      exitCode: WAITING,
      waiting,
    };
  }
  const { need, judge, bases } = await verifyDecision(
    { decision, path, spec, wave, base, ask: !input.dryRun },
    io,
  );
  const hooks = verifyHooks({ decision, path, wave, bases });
  lineLog(io.stderr)(
    `slice: ${
      slice.length ? slice.map((run) => run.target).join(", ") : "(no runs)"
    }`,
  );
  if (slice.length === 0) {
    lineLog(io.stderr)("nothing to apply: this job's slice is empty");
    if (!input.dryRun) await recordWaveOutcome(decision, base, result, io);
    return result;
  }
  const job = await openWaveJob(
    input,
    {
      root: planRoot,
      jobTag: jobTagOf(input),
    },
    base,
    hooks,
    io,
  );
  const end = await runPasses(
    job,
    (applied) =>
      pass(job, { slice, gated: need.needed, judge, result }, applied),
  );
  if (end.end === "stop") return end.result;
  const done = await afterApply(
    job,
    finish(end.result, input, io),
    end.members,
  );
  await recordWaveOutcome(decision, base, done, io);
  return done;
}

/** One pass: hooks, re-plan the slice, hooks, refuse moved plans, hooks, apply. */
async function pass(
  job: WaveJob,
  of: {
    slice: readonly Run[];
    gated: boolean;
    judge: GateJudge;
    result: JobResult;
  },
  appliedInJob: AppliedInJob,
): Promise<PassEnd> {
  const { input: { spec }, wave, io } = job;
  const decision = of.result.decision!;
  await job.report.approved(decision.status === "approved");
  const before = await job.hooks.run("before-plan", { runs: of.slice });
  if (before) return stopWith({ ...of.result, ...before });
  const { planned, failed } = await planRuns(spec, wave, of.slice, {
    ...job.context,
    discover: false,
  }, io);
  throwIfInterrupted(io);
  logFailures(failed, io.stderr);
  const after = await job.hooks.run("after-plan", {
    runs: planned.map((p) => p.run),
    members: membersOf(planned),
  });
  if (after) return stopWith({ ...of.result, ...after });
  const log = terminalLog(io.stderr, io.env);
  const already = await alreadyApplied(job, of, planned);
  const { unmoved, moved } = compareWithDecision(
    planned,
    decision,
    log,
    already,
  );
  const outcome = {
    ...of.result,
    failed: failed.map((f) => f.target),
    failures: failed.map(({ target, message }) => ({ target, message })),
    moved,
  };
  const apply = {
    decision,
    gated: of.gated,
    planned: unmoved,
    judge: of.judge,
    notApplied: {
      moved: planned.filter((run) => moved.includes(run.target)),
      unplanned: failed.map((f) => f.target),
    },
    alreadyApplied: already,
  };
  if (job.input.dryRun) {
    const preview = await previewPass(job, apply, outcome);
    return stopWith(
      preview.exitCode ? preview : finish(preview, job.input, io),
    );
  }
  return await applyPass(job, apply, appliedInJob, outcome);
}

/**
 * The runs of the slice whose fresh plan is empty because an earlier job
 * applied them (SPEC.md §10): a moved one's decided plan applied under the
 * decision's approval (or, needing none, this job applied at this head).
 */
async function alreadyApplied(
  job: WaveJob,
  of: { gated: boolean; result: JobResult },
  planned: readonly PlannedRun[],
): Promise<Set<string>> {
  const decision = of.result.decision!;
  const { moved } = compareWithDecision(planned, decision, () => {});
  return await findAlreadyApplied({
    name: decision.name,
    gate: decision.gate,
    wave: decision.wave,
    head: job.base.head,
    job: outcomeJobOf(of.result.job),
    runs: emptyRunsOf(planned, decision.members, moved),
    gated: of.gated,
    ...(decision.approvalId ? { approvalId: decision.approvalId } : {}),
  }, job.io);
}

function stopWith(result: JobResult): PassEnd {
  return { end: "stop", result };
}

/** The result a share or group job starts from: its slice, nothing done yet. */
function startResult(
  input: RunJobInput,
  decision: Decision,
  slice: readonly Run[],
): JobResult {
  const { selection: { wave, kind, share, group } } = input;
  return {
    exitCode: OK,
    wave: wave.k,
    job: {
      kind,
      ...(share === undefined ? {} : { share }),
      ...(group ? { group: group.name } : {}),
    },
    decision,
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
    runs: slice.map((run) => run.target),
  };
}

/** This job's runs: the wave's (or the group's) sorted by target, sliced. */
function sliceOf(input: RunJobInput, decision: Decision): Run[] {
  const { selection: { wave, share, group } } = input;
  const candidates: Run[] = wave.discover
    ? decision.members.map(({ target, op }) => ({ target, op }))
    : wave.runs;
  const pool = group ? groupRuns(group, candidates) : candidates;
  return sliceShare(pool, group ? group.shares : wave.shares, share ?? 1);
}

/** Names the job's files: `share-2`, `group-eu`, `group-eu-share-1`. */
function jobTagOf(input: RunJobInput): string {
  const { share, group } = input.selection;
  return group
    ? `group-${group.name}${share ? `-share-${share}` : ""}`
    : `share-${share}`;
}

/** Sets the exit code (1 a run failed, else 4 a run moved, else 0) and says why. */
function finish(
  result: JobResult,
  input: RunJobInput,
  io: RunIo,
): JobResult {
  const log = terminalLog(io.stderr, io.env);
  const k = input.selection.wave.k;
  if (result.failed.length) {
    log(styledLead(
      `error: ${countOf(result.failed.length, "run")} failed: ${
        result.failed.join(", ")
      }`,
    ));
    return { ...result, exitCode: RUN_FAILED };
  }
  if (result.moved.length) {
    log(styledLead(
      `error: refused ${
        countOf(result.moved.length, "run")
      } whose plan moved since wave ${k} was decided: ${
        result.moved.join(", ")
      }`,
    ));
    log(
      `then decide again (it plans the moved runs afresh, and waits for an approval if they need one): ${
        decideCommand(input)
      }`,
    );
    return { ...result, exitCode: PLAN_MOVED };
  }
  return { ...result, exitCode: OK };
}

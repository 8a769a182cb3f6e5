/**
 * Share and group jobs (SPEC.md §4.7), as their stages in order: read the
 * wave's decision, the base, the order of waves; a waiting decision says what
 * it waits for, unless approvals count for it now; check the decision against the spec at base and the ledger
 * (the job's one read of the gate before it claims) and its hooks; a freeze
 * window holding now, unless an approval lets the plans through it; take the
 * slice; check the wave's canary (§19: nothing applies before every canary
 * run applied, and the slice's canary runs are left out); then in passes
 * (§11: an apply may ask for a new plan) the before-plan
 * hooks, re-plan the slice, the after-plan hooks, refuse every run whose plan
 * moved since the decision (unless it plans empty because it was applied
 * already, §10), the before-apply hooks, claim under the gate, apply; then the
 * after-apply hooks and the wave outcome.
 * @module
 */

import { lineLog, terminalLog } from "../console/line_log.ts";
import { WAITING } from "../exit_codes.ts";
import { readGate } from "../ledger/read_gate.ts";
import type { Decision } from "../gate/decision.ts";
import type { JobResult, SkippedRun } from "../jobs/job_result.ts";
import { checkCanary } from "./canary_check.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import type { Run } from "../spec/types.ts";
import { emptyRunsOf, findAlreadyApplied } from "./already_applied.ts";
import { applyPass } from "./apply_stage.ts";
import {
  compareWithDecision,
  refuseMovedBack,
} from "./compare_with_decision.ts";
import { plansLiveState } from "../spec/command_types.ts";
import { membersOf } from "./decide_wave.ts";
import { afterApply } from "./hook_stage.ts";
import { type RunIo, throwIfInterrupted } from "./run_io.ts";
import { readJobBase } from "./job_base.ts";
import { logFailures, type PlannedRun } from "./run_outcomes.ts";
import { checkOrder } from "./order_stage.ts";
import { checkFreeze, startsHold } from "./freeze_stage.ts";
import type { FreezeHold } from "../gate/freeze_hold.ts";
import { planRuns } from "./plan_runs.ts";
import { previewApply } from "./preview_apply.ts";
import {
  readDecision,
  type VerifiedDecision,
  verifyDecision,
  verifyHooks,
} from "./verify_decision.ts";
import {
  outcomeJobOf,
  recordWaveOutcome,
  shareOutcome,
} from "./record_outcome.ts";
import {
  type Pass,
  type PassEnd,
  passRuns,
  runPasses,
  stopWith,
} from "./replan_loop.ts";
import { sayWhatWaits } from "./say_what_waits.ts";
import {
  type RunJobInput,
  shareJobTag,
  shareResult,
  shareSlice,
} from "./select_job.ts";
import { openWaveJob, type WaveJob } from "./wave_job.ts";

/**
 * Runs a share or group job.
 * @param input The job and its settings.
 * @param planRoot `.chant`, or a temporary directory for dry runs.
 * @param io The edges.
 * @returns The result: 0 applied, 1 a run or hook failed, 3 waiting (a waiting
 *   decision no approval covers yet), 4 a run moved.
 * @throws {InputError} When the decision is missing, unreadable or does not match
 *   the spec at base, its hooks or the ledger (exit 2).
 */
export async function runShare(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { spec, selection: { wave } } = input;
  const read = await readDecision(spec.name, wave, io.cwd);
  const { path } = read;
  let { decision } = read;
  const slice = shareSlice(input, decision);
  let result = shareResult(input, decision, slice);
  const base = await readJobBase(input, io, true);
  const waits = await checkOrder(input, base, io);
  if (waits) return { ...result, exitCode: WAITING, waitsFor: waits };
  if (decision.status === "waiting") {
    // Approved since it was decided: checked below as any approved decision.
    const now = await sayWhatWaits(decision, input, base, io);
    if ("waiting" in now) {
      return { ...result, exitCode: WAITING, waiting: now.waiting };
    }
    decision = now.approved;
    result = shareResult(input, decision, slice);
  }
  const verified = await verifyDecision(
    { decision, path, spec, wave, base, ask: !input.dryRun },
    io,
  );
  const hooks = verifyHooks({
    decision,
    path,
    wave,
    plan: spec.plan,
    bases: verified.bases,
  });
  const log = lineLog(io.stderr);
  const frozen = await checkFreeze(input, decision, {
    bases: verified.bases,
    judge: verified.judge,
    head: base.head,
    slice,
  }, io);
  if (frozen.waits) {
    return { ...result, exitCode: WAITING, waitsFor: frozen.waits };
  }
  log(`slice: ${slice.map((run) => run.target).join(", ") || "(no runs)"}`);
  if (slice.length === 0) {
    log("nothing to apply: this job's slice is empty");
    if (!input.dryRun) await recordWaveOutcome(decision, base, result, io);
    return result;
  }
  const canary = await checkCanary(
    { input, decision, verified, base, slice },
    io,
  );
  if ("exitCode" in canary) return { ...result, exitCode: canary.exitCode };
  if (canary.slice.length === 0) {
    log("nothing to apply: this job's runs are the canary's, applied already");
    const done = { ...result, skipped: canary.skipped };
    if (!input.dryRun) await recordWaveOutcome(decision, base, done, io);
    return done;
  }
  const jobTag = shareJobTag(input);
  const job = await openWaveJob(
    input,
    { root: planRoot, jobTag },
    base,
    hooks,
    io,
  );
  const of = {
    slice: canary.slice,
    canaryApplied: canary.skipped,
    verified,
    result,
    decision,
    holdStarts: frozen.letThrough
      ? undefined
      : startsHold(verified.bases, wave, { members: decision.members }, io),
  };
  const end = await runPasses(job, (pass) => sharePass(job, of, pass));
  if (end.end === "stop") return end.result;
  const done = await afterApply(
    job.hooks,
    shareOutcome(end.result, input, io),
    end.members,
  );
  await recordWaveOutcome(decision, base, done, io);
  return done;
}

/** What every pass of a share job works from. */
interface ShareJob {
  /** The runs it plans and applies: its slice, but the canary runs. */
  slice: readonly Run[];
  /** The canary runs of its slice, which the deciding job applied (SPEC.md §19). */
  canaryApplied: readonly SkippedRun[];
  decision: Decision;
  /** The decision as checked: whether it needs an approval, the judge, the gate as read. */
  verified: VerifiedDecision;
  /** The job's result before its first pass. */
  result: JobResult;
  /** Asked before each run's apply starts: a freeze window begun since (§19). */
  holdStarts: (() => FreezeHold | undefined) | undefined;
}

/** One pass: hooks, re-plan the slice, hooks, refuse moved plans, then apply. */
async function sharePass(
  job: WaveJob,
  of: ShareJob,
  pass: Pass,
): Promise<PassEnd> {
  const { input: { spec }, wave, io } = job;
  await job.report.approved(of.decision.status === "approved");
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
  const already = await alreadyApplied(job, of, pass, planned);
  const log = terminalLog(io.stderr, io.env);
  const compared = compareWithDecision(planned, of.decision, log, already);
  const { unmoved, movedBack } = refuseMovedBack(
    compared.unmoved,
    of.verified.gate?.decision,
    plansLiveState(spec.plan),
    log,
  );
  const moved = [...compared.moved, ...movedBack];
  const result = {
    ...of.result,
    failed: failed.map((f) => f.target),
    failures: failed.map(({ target, message }) => ({ target, message })),
    moved,
  };
  if (job.input.dryRun) {
    const preview = await previewApply(job, {
      decision: of.decision,
      gate: of.verified.gate?.decision,
      planned: unmoved,
      alreadyApplied: already,
    }, result);
    return stopWith(
      preview.exitCode ? preview : shareOutcome(preview, job.input, io),
    );
  }
  return await claimAndApply(job, of, pass, { unmoved, already, result }, {
    moved: planned.filter((run) => moved.includes(run.target)),
    unplanned: failed.map((f) => f.target),
  });
}

/** The end of a pass: the before-apply hooks, claim under the gate, apply. */
async function claimAndApply(
  job: WaveJob,
  of: ShareJob,
  pass: Pass,
  now: {
    unmoved: PlannedRun[];
    already: ReadonlySet<string>;
    result: JobResult;
  },
  notApplied: { moved: PlannedRun[]; unplanned: string[] },
): Promise<PassEnd> {
  const todo = passRuns(pass, now.unmoved, now.already);
  todo.earlier.unshift(...of.canaryApplied);
  return await applyPass(job, {
    todo,
    planned: now.unmoved,
    members: membersOf(now.unmoved),
    result: now.result,
    decision: of.decision,
    sealed: of.verified.judge.rules.mode === "sealed",
    gate: () => gateOfPass(job, of, pass, todo.runs),
    notApplied,
    ...(of.holdStarts ? { holdStarts: of.holdStarts } : {}),
  });
}

/**
 * The gate a pass claims under. The decision's check read and decided it, and
 * the first pass claims under that: the gate is not read again before the
 * claim, whose own read-back (after the claim is written) settles any race with
 * another job. A later pass reads it again when it has runs to claim: the
 * earlier passes' claims and outcomes moved where its plans stand (SPEC.md §10,
 * §11).
 */
async function gateOfPass(
  job: WaveJob,
  of: ShareJob,
  pass: Pass,
  runs: readonly PlannedRun[],
): Promise<GateDecision | undefined> {
  const { gate, judge } = of.verified;
  if (gate === undefined || pass.n === 1 || runs.length === 0) {
    return gate?.decision;
  }
  const { decision } = of;
  return (await readGate(decision.name, decision.gate, {
    digest: decision.digest,
    members: decision.members,
    judge,
    wave: job.input.selection.wave.name,
  }, job.io)).decision;
}

/**
 * The runs of the slice whose fresh plan is empty because an earlier job
 * applied them (SPEC.md §10): a moved one's decided plan applied under the
 * decision's approval (or, needing none, this job applied at this head). The
 * first pass of a gated decision finds that in the gate's records the
 * decision's check read.
 */
async function alreadyApplied(
  job: WaveJob,
  of: ShareJob,
  pass: Pass,
  planned: readonly PlannedRun[],
): Promise<Set<string>> {
  const { decision } = of;
  const { moved } = compareWithDecision(planned, decision, () => {});
  const read = pass.n === 1 ? of.verified.gate : undefined;
  return await findAlreadyApplied(
    {
      name: decision.name,
      gate: decision.gate,
      wave: decision.wave,
      head: job.base.head,
      job: outcomeJobOf(of.result.job),
      runs: emptyRunsOf(planned, decision.members, moved),
      gated: of.verified.need.needed,
      ...(decision.approvalId ? { approvalId: decision.approvalId } : {}),
    },
    job.io,
    read?.records,
  );
}

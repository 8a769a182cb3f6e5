/**
 * The whole-wave job and the deciding job (SPEC.md §4.1), as their stages in
 * order: the base, the order of waves, the hooks with the holds at base; then in
 * passes (§11: an apply may ask for a new plan) the before-plan hooks,
 * planning, the after-plan hooks, the decision and its record (the pass's one
 * read of the gate before it claims), and for a whole wave the before-apply
 * hooks, the claim under that gate and applying, its canary runs first
 * (§19); a deciding job applies the canary runs only, the same way; then the
 * after-apply hooks and the wave outcome. Dry runs plan under a temporary
 * directory and record nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import { OK, PLAN_MOVED, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { gateName } from "../gate/gate_messages.ts";
import type { DecisionMember } from "../gate/decision.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { Wave } from "../spec/types.ts";
import { emptyRunsOf, findAlreadyApplied } from "./already_applied.ts";
import { applyPass } from "./apply_stage.ts";
import { type Decided, decideStage, waitingNote } from "./decide_stage.ts";
import { membersOf } from "./decide_wave.ts";
import { afterApply, waveHooks } from "./hook_stage.ts";
import { waveCommands } from "../hooks/commands_at_base.ts";
import { type RunIo, throwIfInterrupted } from "./run_io.ts";
import { readJobBase } from "./job_base.ts";
import {
  type FailedRun,
  logFailures,
  type PlannedRun,
  type PlanOutcome,
} from "./run_outcomes.ts";
import { checkOrder } from "./order_stage.ts";
import { startsHold } from "./freeze_stage.ts";
import { planRuns } from "./plan_runs.ts";
import { previewApply } from "./preview_apply.ts";
import { failedNextSteps, recordWaveOutcome } from "./record_outcome.ts";
import {
  type Pass,
  type PassEnd,
  passRuns,
  runPasses,
  stopWith,
} from "./replan_loop.ts";
import { type RunJobInput, ungroupedRuns } from "./select_job.ts";
import {
  canaryFailedAt,
  otherWavesTargets,
  outsideLine,
  stillFailed,
  waveCanary,
} from "../gate/canary_runs.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import type { CanaryFirst } from "./canary_first.ts";
import { openWaveJob, type WaveJob } from "./wave_job.ts";

/**
 * Runs a whole-wave or deciding job.
 * @param input The job and its settings.
 * @param planRoot `.chant`, or a temporary directory for dry runs.
 * @param io The edges.
 * @returns The result; exit 0 decided/applied, 1 a run or hook failed, 3
 *   waiting, 4 an apply refused a run whose target moved since the plan.
 * @throws {InputError} When the base cannot be resolved (exit 2).
 */
export async function runDeciding(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { selection: { wave, kind } } = input;
  const result = emptyResult(wave.k, kind);
  const base = await readJobBase(input, io, false);
  input.onBase?.(base.bases);
  // What reading the base (the spec there, the gate) left is freed first.
  io.pacer?.settle(wave.runs.length);
  const waits = await checkOrder(input, base, io);
  if (waits) return { ...result, exitCode: WAITING, waitsFor: waits };
  // What the decision reads of the gate is read before the change's first
  // command (a hook, a plan): after it, nothing of the ledger is read again.
  await io.ledger.readAhead(input.spec.name, gateName(input.spec, wave.k), {
    asOf: io.asOf,
  });
  const targets = wave.runs.map((run) => run.target);
  const own = waveCommands(input.spec.plan, wave.hooks, base.bases, {
    k: wave.k,
    name: wave.name,
    targets,
  });
  for (const { point, hook } of own.left) {
    lineLog(io.stderr)(
      `hook ${point} "${hook.name}": not in the spec at base; a sqitch rollout runs only the hook commands its base holds, so it runs once the change is merged`,
    );
  }
  const hooks = waveHooks(own.hooks, wave, base.bases, targets, io);
  const job = await openWaveJob(
    input,
    { root: planRoot, jobTag: kind },
    base,
    hooks,
    io,
  );
  const end = await runPasses(job, (pass) => wavePass(job, result, pass));
  if (end.end === "stop") return end.result;
  const { failed, moved } = end.result;
  const log = lineLog(io.stderr);
  if (failed.length) {
    log(`error: ${countOf(failed.length, "run")} failed to apply`);
    for (const line of failedNextSteps(input, end.result)) log(line);
  } else if (moved.length) {
    log(
      `error: refused ${
        countOf(moved.length, "run")
      } whose target moved since it was planned: ${moved.join(", ")}`,
    );
  }
  const done = await afterApply(job.hooks, {
    ...end.result,
    exitCode: failed.length ? RUN_FAILED : moved.length ? PLAN_MOVED : OK,
  }, end.members);
  await recordWaveOutcome(done.decision!, base, done, io);
  return done;
}

/** One pass: hooks, plan, hooks, decide, and for a whole wave hooks, claim and apply. */
async function wavePass(
  job: WaveJob,
  result: JobResult,
  pass: Pass,
): Promise<PassEnd> {
  const { input: { spec, dryRun, selection: { kind } }, wave, io } = job;
  const planned = await planStage(job, result);
  if ("end" in planned) return planned;
  const { plan, targets, runs, members } = planned;
  const decided = await decideStage(
    job,
    { planned: plan.planned, members },
    targets,
  );
  const { decision, judge } = decided;
  const now: JobResult = {
    ...result,
    runs,
    decision,
    ...(plan.waves === undefined ? {} : { wavesFound: plan.waves }),
  };
  if (decision.status === "waiting") {
    const waiting = waitingNote(
      judge.rules,
      decision.tally,
      decision.approve,
      decided.gate?.tally?.counted.length ?? 0,
    );
    return stopWith({ ...now, waiting }, WAITING);
  }
  const canary = waveCanary(
    timingAtBase(job.base.bases, { k: wave.k, name: wave.name, targets }),
    wave.runs.map((run) => run.target),
    decision.members,
    otherWavesTargets(spec.waves, wave.k),
  );
  if (canary?.outside) {
    const line = outsideLine(canary);
    lineLog(io.stderr)(line);
    return stopWith({ ...now, waitsFor: [line] }, WAITING);
  }
  if (canary && !dryRun) {
    const { records } = await io.ledger.readGate(spec.name, decision.gate, {
      kinds: ["wave-outcome"],
    });
    const unpassed = stillFailed(
      canaryFailedAt(records, wave.k, job.base.head),
      decision.members,
    );
    if (unpassed.length > 0) {
      lineLog(io.stderr)(
        `canary: ${unpassed.join(", ")} failed at ${
          job.base.head.slice(0, 12)
        } and ${unpassed.length === 1 ? "plans" : "plan"} no change now, so ${
          unpassed.length === 1 ? "it has" : "they have"
        } not passed: nothing more of wave ${wave.k} "${wave.name}" applies at this commit (${canary.rule}); push a fix as a new commit`,
      );
      return stopWith(now, RUN_FAILED);
    }
  }
  if (kind === "decide" && !dryRun) {
    lineLog(io.stderr)(`decided: ${decisionRecordPath(spec.name, wave.k)}`);
    // The deciding job applies the canary runs, before the share and group
    // jobs apply the rest (SPEC.md §19).
    if (canary === undefined) return stopWith(now);
  }
  const already = await findAlreadyApplied({
    name: spec.name,
    gate: decision.gate,
    wave: wave.k,
    head: job.base.head,
    job: { kind: "wave" },
    runs: emptyRunsOf(plan.planned, [], []),
    gated: false,
  }, io);
  if (dryRun) {
    return stopWith(
      await previewApply(job, {
        decision,
        gate: decided.gate,
        planned: plan.planned,
        alreadyApplied: already,
        ...(canary ? { canary } : {}),
      }, now),
    );
  }
  // A deciding job applies the canary runs only.
  const deciding = kind === "decide";
  const toApply = deciding
    ? plan.planned.filter((run) => canary!.targets.includes(run.target))
    : plan.planned;
  return await claimAndApply(job, decided, pass, {
    planned: toApply,
    already,
    result: now,
    ...(canary
      ? {
        canary: {
          canary,
          wave,
          ...(deciding ? { othersElsewhere: true } : {}),
        },
      }
      : {}),
  });
}

/**
 * The planning half of a pass: the before-plan hooks, planning every run (a
 * wave some run of which fails to plan is not decided), the holds found at base
 * through the planned targets, the after-plan hooks.
 */
async function planStage(
  job: WaveJob,
  result: JobResult,
): Promise<
  PassEnd | {
    plan: PlanOutcome;
    targets: string[];
    runs: string[];
    members: DecisionMember[];
  }
> {
  const { input: { spec }, wave, io } = job;
  const before = await job.hooks.run("before-plan", { runs: wave.runs });
  if (before) return stopWith(result, before.exitCode);
  const plan = await planRuns(spec, wave, wave.runs, {
    ...job.context,
    discover: wave.discover,
  }, io);
  throwIfInterrupted(io);
  const failed = [...plan.failed, ...ungroupedRuns(wave, plan.planned)];
  const runs = [...plan.planned, ...plan.failed].map((run) => run.target);
  if (failed.length) {
    return stopWith(notDecided({ ...result, runs }, wave, failed, io));
  }
  const targets = wave.runs.map((run) => run.target);
  // Holds at base found through a target the plans named: only a
  // discovering wave's plans name targets it did not declare (the declared
  // targets' holds are the job's already).
  const found = wave.discover ? undeclared(targets, plan.planned) : [];
  if (found.length) {
    targets.push(...found);
    job.hooks.setHooks(
      waveHooks(job.hooks.hooks(), wave, job.base.bases, targets, io),
    );
  }
  // Made once for the hooks and the decision: a member per run.
  const members = membersOf(plan.planned);
  const after = await job.hooks.run("after-plan", {
    runs: plan.planned.map((p) => p.run),
    members,
  });
  if (after) return stopWith(result, after.exitCode);
  return { plan, targets, runs, members };
}

/** The planned targets not among `declared`. */
function undeclared(
  declared: readonly string[],
  planned: readonly PlannedRun[],
): string[] {
  const known = new Set(declared);
  return planned.map((run) => run.target).filter((t) => !known.has(t));
}

/**
 * The end of a whole wave's pass, or of a deciding job's that applies the
 * wave's canary runs: the before-apply hooks, claim under the gate, apply.
 */
async function claimAndApply(
  job: WaveJob,
  decided: Decided,
  pass: Pass,
  now: {
    planned: PlannedRun[];
    already: ReadonlySet<string>;
    result: JobResult;
    canary?: CanaryFirst;
  },
): Promise<PassEnd> {
  const { decision, judge } = decided;
  // The decision's members are the pass's plans: not built again, since they
  // are kept until the wave ends.
  const holdStarts = startsHold(job.base.bases, job.wave, decision, job.io);
  return await applyPass(job, {
    todo: passRuns(pass, now.planned, now.already),
    planned: now.planned,
    members: decision.members,
    result: now.result,
    decision,
    sealed: judge.rules.mode === "sealed",
    gate: () => decided.gate,
    ...(now.canary ? { canary: now.canary } : {}),
    ...(holdStarts ? { holdStarts } : {}),
  });
}

function emptyResult(wave: number, kind: JobResult["job"]["kind"]): JobResult {
  return {
    exitCode: OK,
    wave,
    job: { kind },
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
  };
}

/** A wave some run of which failed to plan is not decided: exit 1. */
function notDecided(
  result: JobResult,
  wave: Wave,
  failed: readonly FailedRun[],
  io: RunIo,
): JobResult {
  logFailures(failed, io.stderr);
  lineLog(io.stderr)(
    `error: wave ${wave.k} "${wave.name}" is not decided: ${
      countOf(failed.length, "run")
    } failed to plan`,
  );
  return {
    ...result,
    exitCode: RUN_FAILED,
    failed: failed.map((f) => f.target),
    failures: failed.map(({ target, message }) => ({ target, message })),
  };
}

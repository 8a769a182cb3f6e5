/**
 * The whole-wave job and the deciding job (SPEC.md §4.1), as their stages: the
 * base, the order of waves, planning, the policy at base, the decision and its
 * record, then (whole wave only) claiming, applying and the wave outcome. Dry
 * runs plan under a temporary directory and record nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { OK, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { compilePattern } from "../jobs/group_pattern.ts";
import type { Wave } from "../spec/types.ts";
import { applyStage, countOf, previewApply } from "./apply_stage.ts";
import { decideWave } from "./decide_wave.ts";
import type { Decision } from "./decision.ts";
import type { RunJobInput } from "./job_input.ts";
import { gateRules } from "./gate_rules.ts";
import { readJobBase, wavePolicy } from "./job_base.ts";
import { dryRunLine, type JobResult, logFailures } from "./job_result.ts";
import { type FailedRun, type PlannedRun, planRuns } from "./plan_runs.ts";
import type { RunIo } from "./run_io.ts";
import { checkOrder } from "./order_stage.ts";
import { recordWaveOutcome } from "./record_outcome.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";

/**
 * Runs a whole-wave or deciding job.
 * @param input The job and its settings.
 * @param planRoot `.chant`, or a temporary directory for dry runs.
 * @param io The edges.
 * @returns The result; exit 0 decided/applied, 1 a run failed, 3 waiting.
 * @throws {InputError} When the base cannot be resolved (exit 2).
 */
export async function runDeciding(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { spec, selection: { wave, kind }, settings, dryRun } = input;
  const log = lineLog(io.stderr);
  const result = emptyResult(wave.k, kind);
  const base = await readJobBase(input, io);
  if (await checkOrder(input, base, io) === "wait") {
    return { ...result, exitCode: WAITING };
  }
  const context = { root: planRoot, jobTag: kind, settings };
  const { planned, failed } = await planRuns(spec, wave, wave.runs, {
    ...context,
    discover: wave.discover,
  }, io);
  throwIfInterrupted(io);
  failed.push(...ungroupedRuns(wave, planned));
  if (failed.length > 0) return notDecided(result, wave, failed, io);
  const targets = [...wave.runs, ...planned].map((run) => run.target);
  const policy = wavePolicy([base], wave, targets, io);
  const judge = gateRules([base], wave, targets, base, io);
  const decision = await decideWave(
    { ...input, wave, planned, policy, base, judge },
    io,
  );
  throwIfInterrupted(io);
  if (!dryRun) await writeDecision(decision, io);
  const decided = { ...result, decision };
  if (decision.status === "waiting") return { ...decided, exitCode: WAITING };
  if (dryRun) {
    const preview = await previewApply({
      spec,
      wave,
      decision,
      gated: decision.status === "approved",
      planned,
      judge,
    }, io);
    for (const { target, reason } of preview.skipped) {
      log(`would skip: ${target}: ${reason}`);
    }
    log(dryRunLine(decision, preview.apply));
    return { ...decided, skipped: preview.skipped };
  }
  if (kind === "decide") {
    log(`decided: ${decisionRecordPath(spec.name, wave.k)}`);
    return decided;
  }
  const applied = await applyStage({
    spec,
    wave,
    decision,
    gated: decision.status === "approved",
    planned,
    judge,
    context,
  }, io);
  if (applied === "waiting") return { ...decided, exitCode: WAITING };
  if (applied.failed.length) {
    log(`error: ${countOf(applied.failed.length, "run")} failed to apply`);
  }
  const done: JobResult = {
    ...decided,
    exitCode: applied.failed.length ? RUN_FAILED : OK,
    applied: applied.applied,
    failed: applied.failed.map((f) => f.target),
    untried: applied.untried,
    skipped: applied.skipped,
  };
  await recordWaveOutcome(decision, base.head, done, io);
  return done;
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
  };
}

/** Writes the decision record atomically. */
async function writeDecision(decision: Decision, io: RunIo): Promise<void> {
  const path = resolve(
    io.cwd,
    decisionRecordPath(decision.name, decision.wave),
  );
  await writeFileAtomic(path, JSON.stringify(decision, null, 2) + "\n");
}

/**
 * With `discover` and job groups, every discovered run must fall in exactly one
 * group before the gate (§4.10).
 */
function ungroupedRuns(
  wave: Wave,
  planned: readonly PlannedRun[],
): FailedRun[] {
  if (!wave.discover || wave.jobs === undefined) return [];
  const groups = wave.jobs.map((group) => ({
    name: group.name,
    patterns: group.runs.map(compilePattern),
  }));
  const failed: FailedRun[] = [];
  for (const { target } of planned) {
    const matching = groups.filter((g) =>
      g.patterns.some((p) => p.test(target))
    ).map((g) => `"${g.name}"`);
    if (matching.length === 1) continue;
    const why = matching.length === 0
      ? "matches no job group"
      : `matches job groups ${matching.join(" and ")}`;
    failed.push({
      target,
      message: `discovered run "${target}" ${why}`,
      tail: [],
    });
  }
  return failed;
}

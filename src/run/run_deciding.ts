/**
 * The whole-wave job and the deciding job (SPEC.md §4.1): read the policy at base,
 * plan every run, decide, write the decision record, and (whole wave only) spend
 * the approval and apply. Dry runs plan under a temporary directory and record
 * nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { OK, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { decideWave } from "./decide_wave.ts";
import { readJobBase, wavePolicy } from "./job_base.ts";
import { type JobResult, logFailures } from "./job_result.ts";
import { type FailedRun, type PlannedRun, planRuns } from "./plan_runs.ts";
import { compilePattern } from "../jobs/group_pattern.ts";
import type { Wave } from "../spec/types.ts";
import type { RunJobInput } from "./job_input.ts";
import type { RunIo } from "./run_io.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import { countOf, dryRunLine, spendAndApply } from "./spend_and_apply.ts";

/**
 * Runs a whole-wave or deciding job.
 * @param input The job and its settings; `planRoot` is `.chant` or a temporary directory.
 * @param io The edges.
 * @returns The result; exit 0 decided/applied, 1 a run failed, 3 waiting.
 * @throws {InputError} When the base commit is missing (exit 2).
 */
export async function runDeciding(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { spec, selection: { wave, kind }, settings, dryRun } = input;
  const log = lineLog(io.stderr);
  const result: JobResult = {
    exitCode: OK,
    wave: wave.k,
    job: { kind },
    applied: [],
    failed: [],
    moved: [],
    untried: [],
  };
  const base = await readJobBase(input, io);
  const context = { root: planRoot, jobTag: kind, settings };
  const { planned, failed } = await planRuns(
    spec,
    wave,
    wave.runs,
    { ...context, discover: wave.discover },
    io,
  );
  throwIfInterrupted(io);
  failed.push(...ungroupedRuns(wave, planned));
  if (failed.length > 0) {
    logFailures(failed, io.stderr);
    log(
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
  const policy = wavePolicy(
    [base],
    wave,
    [...wave.runs, ...planned].map((run) => run.target),
    io,
  );
  const decision = await decideWave(
    { ...input, wave, planned, policy, base },
    io,
  );
  throwIfInterrupted(io);
  if (!dryRun) {
    const path = resolve(io.cwd, decisionRecordPath(spec.name, wave.k));
    await writeFileAtomic(path, JSON.stringify(decision, null, 2) + "\n");
  }
  const decided = { ...result, decision };
  if (decision.status === "waiting") return { ...decided, exitCode: WAITING };
  if (dryRun) {
    log(dryRunLine(decision, planned.length));
    return decided;
  }
  if (kind === "decide") {
    log(`decided: ${decisionRecordPath(spec.name, wave.k)}`);
    return decided;
  }
  const applied = await spendAndApply(
    spec,
    wave,
    decision,
    decision.status === "approved",
    planned,
    context,
    io,
  );
  if (applied === "waiting") return { ...decided, exitCode: WAITING };
  if (applied.failed.length) {
    log(`error: ${countOf(applied.failed.length, "run")} failed to apply`);
  }
  return {
    ...decided,
    exitCode: applied.failed.length ? RUN_FAILED : OK,
    applied: applied.applied,
    failed: applied.failed.map((f) => f.target),
    untried: applied.untried,
  };
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

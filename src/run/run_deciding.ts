/**
 * The whole-wave job and the deciding job (SPEC.md §4.1): read the policy at base,
 * plan every run, decide, write the decision record, and (whole wave only) spend
 * the approval and apply. Dry runs plan under a temporary directory and record
 * nothing.
 * @module
 */

import { OK, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { OutcomeError } from "../errors.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { readPolicyAtBase } from "../policy/read_policy.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { applyRuns } from "./apply_runs.ts";
import { decideWave } from "./decide_wave.ts";
import type { Decision } from "./decision.ts";
import { type JobResult, logFailures } from "./job_result.ts";
import { type FailedRun, type PlannedRun, planRuns } from "./plan_runs.ts";
import { compilePattern } from "../jobs/group_pattern.ts";
import type { Wave } from "../spec/types.ts";
import type { RunJobInput } from "./run_job.ts";
import type { RunIo } from "./run_io.ts";
import { spendApproval } from "./spend_approval.ts";

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
  const log = (line: string) => io.stderr.write(`${line}\n`);
  const result: JobResult = {
    exitCode: OK,
    wave: wave.k,
    job: { kind },
    applied: [],
    failed: [],
    moved: [],
    untried: [],
  };
  const policy = await readPolicyAtBase({
    git: io.git,
    cwd: io.cwd,
    specPath: input.specFile,
    base: input.base,
    waveName: wave.name,
    parse: input.parseSpec,
  });
  log(
    `policy of wave ${wave.k} "${wave.name}": ${policy.policy} (${policy.reason})`,
  );
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
      `wave ${wave.k} "${wave.name}" is not decided: ${failed.length} run${
        failed.length === 1 ? "" : "s"
      } failed to plan`,
    );
    return {
      ...result,
      exitCode: RUN_FAILED,
      failed: failed.map((f) => f.target),
    };
  }
  const decision = await decideWave({ ...input, wave, planned, policy }, io);
  throwIfInterrupted(io);
  if (!dryRun) {
    await writeFileAtomic(
      resolve(io.cwd, decisionRecordPath(spec.name, wave.k)),
      JSON.stringify(decision, null, 2) + "\n",
    );
  }
  const decided = { ...result, decision };
  if (decision.status === "waiting") return { ...decided, exitCode: WAITING };
  if (kind === "decide") {
    log(
      dryRun
        ? "dry run: recorded nothing"
        : `decided: ${decisionRecordPath(spec.name, wave.k)}`,
    );
    return decided;
  }
  if (dryRun) return dryRunApply(decision, planned.length, log, decided);
  if (decision.status === "approved") {
    const spend = await spendApproval(decision, io);
    if (!spend.spent) {
      log(
        `gate ${decision.gate}: the approval no longer stands; nothing applied`,
      );
      for (const reason of spend.reasons) log(`  ${reason}`);
      return { ...decided, exitCode: WAITING };
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
    `applied ${applied.applied.length} of ${planned.length} runs of wave ${wave.k} "${wave.name}"`,
  );
  return {
    ...decided,
    exitCode: applied.failed.length ? RUN_FAILED : OK,
    applied: applied.applied,
    failed: applied.failed.map((f) => f.target),
    untried: applied.untried,
  };
}

function dryRunApply(
  decision: Decision,
  runs: number,
  log: (line: string) => void,
  result: JobResult,
): JobResult {
  const using = decision.status === "approved"
    ? ` under the approval ${decision.approvalId} by ${decision.approvedBy}`
    : "";
  log(`dry run: would apply ${runs} runs${using}; recorded nothing`);
  return result;
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

/**
 * Stops the job once SIGINT/SIGTERM arrived, before anything more is recorded.
 * @throws {OutcomeError} With 130 or 143.
 */
export function throwIfInterrupted(io: RunIo): void {
  const code = io.interrupts.exitCode;
  if (code !== undefined) {
    throw new OutcomeError(
      code,
      "interrupted: stopped every running command; recorded nothing more",
    );
  }
}

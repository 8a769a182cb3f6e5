/**
 * Share and group jobs (SPEC.md §4.7): read the wave's decision, take this job's
 * slice, re-plan it, refuse every run whose plan moved since the decision, spend
 * the approval and apply the rest.
 * @module
 */

import { readFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { OK, PLAN_MOVED, RUN_FAILED, WAITING } from "../exit_codes.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { sliceShare } from "../jobs/slice_shares.ts";
import type { Run } from "../spec/types.ts";
import { type Decision, parseDecision } from "./decision.ts";
import { type JobResult, logFailures } from "./job_result.ts";
import { type PlannedRun, planRuns } from "./plan_runs.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import type { RunJobInput } from "./run_job.ts";
import type { RunIo } from "./run_io.ts";
import { groupRuns } from "./select_job.ts";
import { countOf, dryRunLine, spendAndApply } from "./spend_and_apply.ts";

/**
 * Runs a share or group job.
 * @param input The job and its settings.
 * @param planRoot `.chant`, or a temporary directory for dry runs.
 * @param io The edges.
 * @returns The result: 0 applied, 1 a run failed, 3 waiting, 4 a run moved.
 * @throws {InputError} When the decision is missing or unreadable (exit 2).
 */
export async function runShare(
  input: RunJobInput,
  planRoot: string,
  io: RunIo,
): Promise<JobResult> {
  const { spec, selection: { wave, kind, share, group }, settings } = input;
  const log = (line: string) => io.stderr.write(`${line}\n`);
  const decision = await readDecision(input, io);
  const job = {
    kind,
    ...(share === undefined ? {} : { share }),
    ...(group ? { group: group.name } : {}),
  };
  const result: JobResult = {
    exitCode: OK,
    wave: wave.k,
    job,
    decision,
    applied: [],
    failed: [],
    moved: [],
    untried: [],
  };
  if (decision.status === "waiting") {
    log(
      `wave ${wave.k} "${wave.name}" waits for an approval of ${decision.digest}`,
    );
    if (decision.approve) log(`then approve: ${decision.approve}`);
    return { ...result, exitCode: WAITING };
  }
  const candidates: Run[] = wave.discover
    ? decision.members.map(({ target, op }) => ({ target, op }))
    : wave.runs;
  const pool = group ? groupRuns(group, candidates) : candidates;
  const slice = sliceShare(
    pool,
    group ? group.shares : wave.shares,
    share ?? 1,
  );
  log(
    `slice: ${
      slice.length ? slice.map((run) => run.target).join(", ") : "(no runs)"
    }`,
  );
  if (slice.length === 0) {
    log("nothing to apply: this job's slice is empty");
    return result;
  }
  const jobTag = group
    ? `group-${group.name}${share ? `-share-${share}` : ""}`
    : `share-${share}`;
  const context = { root: planRoot, jobTag, settings };
  const { planned, failed } = await planRuns(spec, wave, slice, {
    ...context,
    discover: false,
  }, io);
  throwIfInterrupted(io);
  logFailures(failed, io.stderr);
  const { unmoved, moved } = compareWithDecision(planned, decision, log);
  const outcome = { ...result, failed: failed.map((f) => f.target), moved };
  if (input.dryRun) {
    log(dryRunLine(decision, unmoved.length));
    return finish(outcome, wave.k, log);
  }
  const applied = await spendAndApply(
    spec,
    wave,
    decision,
    unmoved,
    context,
    io,
  );
  if (applied === "waiting") return { ...outcome, exitCode: WAITING };
  outcome.failed.push(...applied.failed.map((f) => f.target));
  return finish(
    { ...outcome, applied: applied.applied, untried: applied.untried },
    wave.k,
    log,
  );
}

/** Sets the exit code (1 a run failed, else 4 a run moved, else 0) and says why. */
function finish(
  result: JobResult,
  k: number,
  log: (line: string) => void,
): JobResult {
  if (result.failed.length) {
    log(
      `error: ${countOf(result.failed.length, "run")} failed: ${
        result.failed.join(", ")
      }`,
    );
    return { ...result, exitCode: RUN_FAILED };
  }
  if (result.moved.length) {
    log(
      `error: refused ${
        countOf(result.moved.length, "run")
      } whose plan moved since wave ${k} was decided: ${
        result.moved.join(", ")
      }`,
    );
    return { ...result, exitCode: PLAN_MOVED };
  }
  return { ...result, exitCode: OK };
}

async function readDecision(input: RunJobInput, io: RunIo): Promise<Decision> {
  const { spec, selection: { wave } } = input;
  const path = decisionRecordPath(spec.name, wave.k);
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, path), "utf8");
  } catch {
    throw new InputError(
      `no decision for wave ${wave.k} "${wave.name}" at "${path}": run the deciding job first`,
    );
  }
  let decision: Decision;
  try {
    decision = parseDecision(text);
  } catch (error) {
    throw new InputError(
      `cannot read the decision "${path}": it ${(error as Error).message}`,
    );
  }
  if (decision.name !== spec.name || decision.wave !== wave.k) {
    throw new InputError(
      `the decision "${path}" is for wave ${decision.wave} of "${decision.name}", not wave ${wave.k} of "${spec.name}"`,
    );
  }
  return decision;
}

function compareWithDecision(
  planned: readonly PlannedRun[],
  decision: Decision,
  log: (line: string) => void,
): { unmoved: PlannedRun[]; moved: string[] } {
  const decided = new Map(
    decision.members.map((member) => [member.target, member.planDigest]),
  );
  const unmoved: PlannedRun[] = [];
  const moved: string[] = [];
  for (const run of planned) {
    const before = decided.get(run.target);
    if (before === run.plan.planDigest) {
      unmoved.push(run);
      continue;
    }
    moved.push(run.target);
    log(
      `refused: ${run.target}: its plan moved since wave ${decision.wave} was decided; ` +
        `decided ${
          before ?? "nothing (the decision lacks this run)"
        }, planned now ${run.plan.planDigest}`,
    );
  }
  return { unmoved, moved };
}

/**
 * `run --gitlab-child` (SPEC.md §6.2, §13.1): the job that decides a gated
 * wave in the rendered GitLab pipeline writes the wave's child pipeline beside
 * its decision record, for the wave's gate job to run. Which child follows
 * from the job's result: done (exit 0), the wave goes on; waiting for an
 * approval of this wave (exit 3 with a waiting decision), the approve jobs of
 * the approvals still to come first (and, for a wave with a canary at the
 * bases the job read, its deciding job again, SPEC.md §19). Any other end
 * writes none, and an earlier
 * file is removed before the job runs, so the file exists only when this run
 * wrote it (the rendered job turns exit 3 green only then). What the child's
 * jobs run comes from the spec and the renderer, never from the plans.
 * @module
 */

import { rm } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { lineLog } from "../console/line_log.ts";
import { InputError } from "../errors.ts";
import { OK, WAITING } from "../exit_codes.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { childPipelinePath } from "../jobs/approve_job.ts";
import { expandJobs } from "../jobs/expand_jobs.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { ChildState } from "../pipeline/render_gitlab_child.ts";
import { childPipelineAtBase } from "../pipeline/pipeline_at_base.ts";
import type { PolicyBase } from "../gate/base_spec.ts";
import { waveCanary } from "../gate/canary_runs.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import type { JobSelection } from "../run/select_job.ts";
import type { Spec } from "../spec/types.ts";
import type { CliIo } from "./io.ts";

/** The job whose child pipeline is written. */
export interface ChildJob {
  spec: Spec;
  /** The spec's path as the job names it (`--spec`). */
  specFile: string;
  selection: JobSelection;
  /** The bases the job read the rules at, once it read them (its canary's, SPEC.md §19). */
  bases?: readonly PolicyBase[];
}

/**
 * Refuses `--gitlab-child` on a job that does not decide a wave, or a dry run,
 * and removes the child an earlier run left at its path.
 * @param job The job.
 * @param dryRun Whether it is a dry run.
 * @param io The working directory.
 * @throws {InputError} For a share or group job, a dry run, or a wave past
 *   the spec's waves (a rest wave again has no jobs of its own).
 */
export async function clearGitlabChild(
  job: ChildJob,
  dryRun: boolean,
  io: Pick<CliIo, "cwd">,
): Promise<void> {
  const { selection: { kind, wave }, spec } = job;
  if (kind !== "wave" && kind !== "decide") {
    throw new InputError(
      '"--gitlab-child" is for the job that decides a wave: a whole-wave or deciding job',
    );
  }
  if (dryRun) {
    throw new InputError(
      '"--gitlab-child" writes a file; a dry run writes none',
    );
  }
  if (!spec.waves.some((w) => w.k === wave.k)) {
    throw new InputError(
      `"--gitlab-child" needs one of the spec's waves; wave ${wave.k} is its rest wave again`,
    );
  }
  await rm(resolve(io.cwd, childPipelinePath(spec.name, wave.k)), {
    force: true,
  });
}

/**
 * Keeps the bases the job read, and takes the lines of the child's jobs at
 * base when the rollout is sqitch's (`childPipelineAtBase`), noting a change
 * that says other lines.
 * @param job The job; its spec's `pipeline` is replaced by the one at base.
 * @param bases The bases the job read.
 * @param io The log.
 * @throws {InputError} When no version at base can be trusted for them.
 */
export function childLinesAtBase(
  job: ChildJob,
  bases: readonly PolicyBase[],
  io: Pick<CliIo, "stderr">,
): void {
  job.bases = bases;
  const at = childPipelineAtBase(job.spec, bases);
  if ("why" in at) {
    throw new InputError(
      `cannot write the child pipeline: a sqitch rollout's child pipeline takes its jobs' lines (pipeline.install, image, setup, variables) from the spec at base, and ${at.why}; a push whose commit before holds the spec writes it`,
    );
  }
  if (JSON.stringify(at.pipeline) !== JSON.stringify(job.spec.pipeline)) {
    lineLog(io.stderr)(
      `note: this change says other lines for the jobs ("pipeline"); the child pipeline of a sqitch rollout reads them at base, so they count once the change is merged`,
    );
  }
  job.spec = { ...job.spec, pipeline: at.pipeline };
}

/**
 * The child a job's result asks for.
 * @param result The job's result.
 * @param canary Whether the wave has a canary at base: a waiting wave of share
 *   or group jobs is then decided again in its child (SPEC.md §19).
 * @returns `{ waits: false }` when it ended 0; the approvals still to come when
 *   it waits for an approval of its own wave; `undefined` otherwise.
 * @example
 * ```ts
 * childStateOf({ exitCode: 0 } as JobResult); // { waits: false }
 * ```
 */
export function childStateOf(
  result: JobResult,
  canary = false,
): ChildState | undefined {
  if (result.exitCode === OK) return { waits: false };
  const { decision, waiting } = result;
  if (
    result.exitCode !== WAITING || result.rest !== undefined ||
    decision?.status !== "waiting" || waiting === undefined
  ) {
    return undefined;
  }
  const { counted, required } = waiting.approvals;
  return {
    waits: true,
    first: Math.min(counted + 1, required),
    required,
    ...(canary ? { canary: true } : {}),
  };
}

/**
 * Writes the child pipeline a job's result asks for, if any, and says so.
 * @param job The job.
 * @param result Its result.
 * @param io The working directory and the log.
 * @throws {InputError} When the child cannot be rendered.
 */
export async function writeGitlabChild(
  job: ChildJob,
  result: JobResult,
  io: Pick<CliIo, "cwd" | "stderr">,
): Promise<void> {
  const state = childStateOf(result, hasCanary(job, result));
  const { spec, specFile, selection: { wave } } = job;
  const log = lineLog(io.stderr);
  if (state === undefined) {
    log(
      `no child pipeline: wave ${wave.k} "${wave.name}" neither went on nor waits for an approval`,
    );
    return;
  }
  // The renderer (and the YAML library) load only when a child is written.
  const { renderGitlabChild } = await import(
    "../pipeline/render_gitlab_child.ts"
  );
  const file = renderGitlabChild(
    spec,
    expandJobs(spec, specFile),
    specFile,
    wave.k,
    state,
  );
  await writeFileAtomic(resolve(io.cwd, file.path), file.text);
  log(
    state.waits
      ? `child pipeline ${file.path}: approve jobs ${state.first} to ${state.required}, then the wave's jobs`
      : `child pipeline ${file.path}: the wave goes on`,
  );
}

/** Whether the job's wave has a canary at the bases it read, for its decided plans. */
function hasCanary(job: ChildJob, result: JobResult): boolean {
  const { wave } = job.selection;
  const members = result.decision?.members ?? [];
  const targets = [...wave.runs, ...members].map((run) => run.target);
  return waveCanary(
    timingAtBase(job.bases ?? [], { k: wave.k, name: wave.name, targets }),
    wave.runs.map((run) => run.target),
    members,
  ) !== undefined;
}

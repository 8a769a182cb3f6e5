/**
 * The GitLab CI job of the scheduled drift job (SPEC.md §19), in the rollout's
 * file: `drift`, run only by a scheduled pipeline whose schedule sets
 * `CHANT_WAVE_SCHEDULE` to `drift` (the resume job's schedules do not), with
 * full history; it fails (exit 5) when a run drifted. Pure.
 * @module
 */

import { commandLine } from "./_common.ts";
import { driftJob, SCHEDULE_VARIABLE, scheduleRule } from "./_drift_job.ts";
import type { GitlabContext } from "./_gitlab_job.ts";
import {
  type GitlabForgeJobs,
  gitlabJobBase,
  gitlabScripts,
} from "./_gitlab_forge_jobs.ts";

/**
 * The drift job, when the spec asks for one.
 * @param context The file-wide settings.
 * @param problems Where to add what GitLab cannot express.
 * @returns The job (or none) and the header notes that explain its schedule.
 */
export function gitlabDriftJob(
  context: GitlabContext,
  problems: string[],
): GitlabForgeJobs {
  const { spec, specFile } = context;
  const job = driftJob(spec, specFile);
  if (job === undefined) return { jobs: {}, notes: [] };
  return {
    jobs: {
      drift: {
        ...gitlabJobBase(context, { GIT_DEPTH: "0" }, problems),
        rules: [{ if: scheduleRule("drift", spec) }],
        ...gitlabScripts(context, commandLine(job, spec)),
      },
    },
    notes: [
      `The drift job runs in scheduled pipelines whose variable ${SCHEDULE_VARIABLE} is "drift" only:`,
      `create a pipeline schedule "${job.schedule}" on the default branch with that variable; it fails`,
      job.record
        ? "(exit 5) when a run drifted, and records the drifted plans in the ledger for an approval."
        : "(exit 5) when a run drifted; chant-wave drift --record records those plans for an approval.",
    ],
  };
}

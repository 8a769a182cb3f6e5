/**
 * The GitLab click path (SPEC.md §13.1): per gated wave a manual `approve` job
 * after the job that decides it, which the pipeline waits on (`when: manual`,
 * `allow_failure: false`: the pipeline is blocked, not failed). The deciding
 * job's exit 3 (waiting) is allowed, it keeps its decision record as an
 * artifact (a whole-wave job too), and every job that needs the deciding job
 * needs the approve job too. Played, the approve job approves the digest of
 * the decision beside it as `GITLAB_USER_LOGIN`, via its own URL, and retries
 * the job that waited; played when nothing waits, it approves nothing. Pure.
 * @module
 */

import { approveJobName, gatedWaves } from "../jobs/approve_job.ts";
import { WAITING } from "../exit_codes.ts";
import type { Job } from "../jobs/expand_jobs.ts";
import { commandLine, installLine } from "./_common.ts";
import type { GitlabContext } from "./_gitlab_job.ts";

/**
 * Adds the approve jobs to a rendered file, in place: each right after the job
 * that decides its wave.
 * @param context The file-wide settings.
 * @param jobs The wave jobs.
 * @param file Job name → rendered job, in file order.
 * @returns The file with the approve jobs, in order.
 */
export function withApproveJobs(
  context: GitlabContext,
  jobs: readonly Job[],
  file: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const { spec, specFile } = context;
  const gated = new Set(gatedWaves(spec).map((wave) => wave.k));
  const approveOf = new Map<string, string>();
  for (const job of jobs) {
    if (
      !gated.has(job.wave) || (job.kind !== "decide" && job.kind !== "wave")
    ) {
      continue;
    }
    approveOf.set(job.name, approveJobName(job.wave, job.waveName));
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const job of jobs) {
    const rendered = { ...file[job.name] };
    const needs = rendered.needs as { job: string; artifacts: boolean }[];
    rendered.needs = needs.flatMap((need) => {
      const approve = approveOf.get(need.job);
      return approve ? [need, { job: approve, artifacts: false }] : [need];
    });
    const approve = approveOf.get(job.name);
    if (approve) {
      // The approve job reads the decision beside it: a whole-wave job keeps
      // it too, as the deciding job of a wave with shares does.
      rendered.artifacts ??= { when: "always", paths: [job.record] };
      rendered.allow_failure = { exit_codes: [WAITING] };
    }
    out[job.name] = rendered;
    if (approve === undefined) continue;
    const line = `${
      commandLine({
        command: [
          "chant-wave",
          "approve",
          "--spec",
          specFile,
          "--wave",
          String(job.wave),
          "--decided",
          "--resume",
        ],
      }, spec)
    } --by "$GITLAB_USER_LOGIN" --via "$CI_JOB_URL"`;
    out[approve] = {
      needs: [{ job: job.name, artifacts: true }],
      allow_failure: false,
      resource_group: `${spec.name}/${approve}`,
      ...(rendered.image === undefined ? {} : { image: rendered.image }),
      ...(rendered.tags === undefined ? {} : { tags: rendered.tags }),
      variables: { GIT_DEPTH: "0", ...spec.pipeline?.variables },
      // GitLab takes no job-level `when` beside `rules`: each rule says it.
      rules: context.rules.map((rule) => ({ ...rule, when: "manual" })),
      before_script: [...context.setup, installLine(spec, specFile)],
      script: [line],
    };
  }
  return {
    ...out,
    ...Object.fromEntries(
      Object.entries(file).filter(([name]) => !(name in out)),
    ),
  };
}

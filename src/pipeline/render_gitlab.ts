/**
 * The GitLab CI renderer (SPEC.md §6.2): `<name>.gitlab-ci.yml`, to include from
 * the project's `.gitlab-ci.yml`. Pure; writing the file is the `pipeline`
 * command's job.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { Spec } from "../spec/types.ts";
import { headerLines, restNote, throwProblems } from "./_common.ts";
import { gitlabForgeJobs } from "./_gitlab_forge_jobs.ts";
import { type GitlabContext, gitlabJob } from "./_gitlab_job.ts";
import { gitlabRules } from "./_gitlab_rules.ts";
import { withApproveJobs } from "./_gitlab_approve_jobs.ts";
import { toYaml } from "./_yaml.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * Renders the GitLab CI file. Every job has `resource_group: <name>/<job name>`:
 * the same job of two pipelines never runs at once (so two rollouts cannot apply
 * the same wave or share together, and with the group's `oldest_first` process
 * mode they pass each wave in order), while the share and group jobs of one wave,
 * having different names, run side by side. Jobs are ordered by `needs` alone, in
 * the default stage.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, relative to the repository root.
 * @returns One file, `<name>.gitlab-ci.yml`; with `resume.schedule` it holds a
 *   `resume` job for scheduled pipelines, and when a wave can be approved by
 *   review a `record-plans` job for merge request pipelines (SPEC.md §13).
 * @throws {InputError} For what GitLab cannot express: a `uses:` setup step, a
 *   branch name no `rules:` expression can hold, a runner group, more than 50 needs.
 * @example
 * ```ts
 * const [file] = renderGitlab(spec, expandJobs(spec, "waves.jsonc"), "waves.jsonc");
 * file.path; // "demo.gitlab-ci.yml"
 * ```
 */
export function renderGitlab(
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
): RenderedFile[] {
  const problems: string[] = [];
  const setup: string[] = [];
  (spec.pipeline?.setup ?? []).forEach((step, index) => {
    if ("run" in step) setup.push(step.run);
    else {
      problems.push(
        `pipeline.setup[${index}] uses the action "${step.uses}", which GitLab CI cannot run; use a "run" step`,
      );
    }
  });
  const context: GitlabContext = {
    spec,
    specFile,
    byName: new Map(jobs.map((job) => [job.name, job])),
    rules: gitlabRules(spec.branches, problems),
    setup,
  };
  const waves: Record<string, Record<string, unknown>> = {};
  for (const job of jobs) waves[job.name] = gitlabJob(context, job, problems);
  const file: Record<string, unknown> = withApproveJobs(context, jobs, waves);
  const extra = gitlabForgeJobs(context, problems);
  Object.assign(file, extra.jobs);
  throwProblems("gitlab", problems);
  const path = `${spec.name}.gitlab-ci.yml`;
  const header = headerLines("gitlab", specFile, [
    `Include it from .gitlab-ci.yml: include: [{ local: ${path} }].`,
    `Each job's resource_group (${spec.name}/<job>) keeps two pipelines off the same wave or share;`,
    "the jobs push the ledger branch chant/ledger, so their token needs write access (see the docs).",
    "A wave that waits blocks the pipeline at its manual approve job: play it to approve the",
    "plans its deciding job shows (as GITLAB_USER_LOGIN) and resume; it needs GITLAB_TOKEN (api).",
    ...extra.notes,
    ...restNote(jobs),
  ]);
  return [{ path, text: toYaml(file, header, { spacedMap: [] }) }];
}

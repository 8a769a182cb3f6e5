/**
 * The GitLab CI renderer (SPEC.md §6.2): `<name>.gitlab-ci.yml`, to include from
 * the project's `.gitlab-ci.yml`, its gated waves run through the child
 * pipelines their deciding jobs write (`render_gitlab_child.ts`). Pure;
 * writing the file is the `pipeline` command's job.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { Spec } from "../spec/types.ts";
import { clickNeeds } from "../jobs/approve_job.ts";
import { headerLines, restNote, throwProblems } from "./_common.ts";
import { gitlabForgeJobs } from "./_gitlab_forge_jobs.ts";
import { gitlabDriftJob } from "./_gitlab_drift_job.ts";
import { gitlabContext, gitlabJob } from "./_gitlab_job.ts";
import { withGates } from "./_gitlab_gates.ts";
import { toYaml } from "./_yaml.ts";
import type { RenderedFile } from "./rendered_file.ts";

/**
 * Renders the GitLab CI file. Every job has `resource_group: <name>/<job name>`:
 * the same job of two pipelines never runs at once (so two rollouts cannot apply
 * the same wave or share together, and with the group's `oldest_first` process
 * mode they pass each wave in order), while the share and group jobs of one wave,
 * having different names, run side by side. Jobs are ordered by `needs` alone, in
 * the default stage. A gated wave's share and group jobs live in its child
 * pipeline, which its gate job runs after its deciding job; the next wave needs
 * the gate job.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, relative to the repository root.
 * @returns One file, `<name>.gitlab-ci.yml`; with `resume.schedule` it holds a
 *   `resume` job for scheduled pipelines, and when a wave can be approved by
 *   review a `record-plans` job for merge request pipelines (SPEC.md §13);
 *   with `drift.schedule` a `drift` job for its own scheduled pipelines (§19).
 * @throws {InputError} For what GitLab cannot express: a `uses:` setup step, a
 *   branch name no `rules:` expression can hold, a runner group, more than 50
 *   needs, a group named like an approve job of its wave.
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
  const context = gitlabContext(spec, jobs, specFile, problems);
  const waves: Record<string, Record<string, unknown>> = {};
  for (const job of jobs) waves[job.name] = gitlabJob(context, job, problems);
  const file: Record<string, unknown> = withGates(
    context,
    jobs,
    waves,
    problems,
  );
  const extra = gitlabForgeJobs(context, problems);
  const drift = gitlabDriftJob(context, problems);
  Object.assign(file, extra.jobs, drift.jobs);
  throwProblems("gitlab", problems);
  const path = `${spec.name}.gitlab-ci.yml`;
  const click = clickNeeds("gitlab", spec);
  const header = headerLines("gitlab", specFile, [
    `Include it from .gitlab-ci.yml: include: [{ local: ${path} }].`,
    `Each job's resource_group (${spec.name}/<job>) keeps two pipelines off the same wave or share;`,
    "the jobs push the ledger branch chant/ledger, so their token needs write access (see the docs).",
    ...click === undefined ? [] : wrapped(
      "A gated wave's deciding job writes the child pipeline its gate job runs: the wave's " +
        "share and group jobs, and when it waits, first one manual approve job per approval " +
        "needed; the pipeline waits there, blocked, not failed. To approve, play the wave's " +
        `manual job wave-<k>-<name>-approve-<i>: ${click.token}.`,
    ),
    ...extra.notes,
    ...drift.notes,
    ...restNote(jobs),
  ]);
  return [{ path, text: toYaml(file, header, { spacedMap: [] }) }];
}

/** How wide a header line gets, `# ` aside. */
const HEADER_WIDTH = 92;

/** A sentence cut into header lines at word ends. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > HEADER_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

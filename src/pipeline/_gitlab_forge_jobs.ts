/**
 * The GitLab CI jobs that are not waves (SPEC.md §13), in the rollout's file:
 * `resume`, which runs only in scheduled pipelines (the schedule itself is made
 * in GitLab), and the request job (`plan`, or `record-plans` when it also
 * records plans), which runs only in merge request pipelines, writes no ledger
 * (no `--ledger`), keeps the plan note and statuses (SPEC.md §18) and hands
 * recorded plans over as its artifact.
 * The wave jobs' rules keep them out of both. Pure.
 * @module
 */

import { shellLine } from "../shell_words.ts";
import { commandLine, installLine } from "./_common.ts";
import { forgeJobs } from "./_forge_jobs.ts";
import { scheduleRule } from "./_drift_job.ts";
import { type GitlabContext, tagsOf } from "./_gitlab_job.ts";
import { mergeRequestRules } from "./_gitlab_rules.ts";

/** The extra jobs by name, and the header lines that explain them. */
export interface GitlabForgeJobs {
  /** Job name → job, ready for YAML. */
  jobs: Record<string, unknown>;
  /** Header comment lines. */
  notes: string[];
}

/**
 * The first keys of a job beside the waves: no `needs`, the spec's image, its
 * runner's tags and the variables (the job's own, then the pipeline's).
 * @param context The file-wide settings.
 * @param own The job's own variables.
 * @param problems Where to add what GitLab cannot express.
 * @returns The keys.
 */
export function gitlabJobBase(
  context: GitlabContext,
  own: Record<string, string>,
  problems: string[],
): Record<string, unknown> {
  const { spec } = context;
  const tags = tagsOf(spec.runner, "the spec", problems);
  const variables = { ...own, ...spec.pipeline?.variables };
  return {
    needs: [],
    ...(spec.pipeline?.image === undefined
      ? {}
      : { image: spec.pipeline.image }),
    ...(tags === undefined ? {} : { tags }),
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
  };
}

/**
 * A job's `before_script` (the setup, then the install line) and `script`.
 * @param context The file-wide settings.
 * @param line The job's command line.
 * @returns The keys.
 */
export function gitlabScripts(
  context: GitlabContext,
  line: string,
): { before_script: string[]; script: string[] } {
  return {
    before_script: [
      ...context.setup,
      installLine(context.spec, context.specFile),
    ],
    script: [line],
  };
}

/**
 * The resume and request jobs a spec asks for.
 * @param context The file-wide settings.
 * @param problems Where to add what GitLab cannot express.
 * @returns The jobs (possibly none) and their header notes.
 */
export function gitlabForgeJobs(
  context: GitlabContext,
  problems: string[],
): GitlabForgeJobs {
  const { spec, specFile } = context;
  const wanted = forgeJobs(spec, specFile);
  const out: GitlabForgeJobs = { jobs: {}, notes: [] };
  const base = (own: Record<string, string>) =>
    gitlabJobBase(context, own, problems);
  const scripts = (line: string) => gitlabScripts(context, line);
  if (wanted.resume) {
    out.jobs.resume = {
      ...base({}),
      rules: [{ if: scheduleRule("resume", spec) }],
      ...scripts(commandLine(wanted.resume, spec)),
    };
    out.notes.push(
      `The resume job runs in scheduled pipelines only: create a pipeline schedule "${wanted.resume.schedule}"`,
      "(Build > Pipeline schedules, or the API) on a branch; it needs GITLAB_TOKEN, a token with the api scope.",
    );
  }
  const request = wanted.request;
  if (request) {
    out.jobs[request.name] = {
      ...base({ GIT_DEPTH: "0" }),
      rules: mergeRequestRules(request.branches, problems),
      ...scripts(shellLine(request.command)),
      ...(request.file ? { artifacts: { paths: [request.file] } } : {}),
    };
    out.notes.push(
      ...request.comment
        ? [
          `The ${request.name} job runs in merge request pipelines only: it plans every wave at the`,
          "merge request's head, applies nothing and writes no ledger. It keeps one note on the",
          "merge request and a commit status per wave with GITLAB_TOKEN: a project access token,",
          "role Developer, scope api, as a masked variable that is not protected (pipelines of",
          "unprotected branches get no protected variable), so anyone who can run a merge request",
          "pipeline can use it: protect chant/ledger (Maintainers push). Its notes and statuses",
          "approve nothing.",
          ...request.file
            ? [
              "The same pass keeps the digests as its artifact, which the wave jobs read with",
              "GITLAB_TOKEN (read_api) when a review approves the merge's forge gates.",
            ]
            : [],
          "It runs the merge request's code: keep the ledger's push token a protected variable,",
          "and do not let the job token push, so this job cannot write the ledger.",
        ]
        : [
          "The record-plans job runs in merge request pipelines only: it plans every wave at the",
          "merge request's head and keeps the digests as its artifact, which the wave jobs read",
          "with GITLAB_TOKEN (read_api) when a review approves the merge's forge gates. It runs",
          "the merge request's code: keep the ledger's push token a protected variable, and do",
          "not let the job token push, so this job cannot write the ledger.",
        ],
    );
  }
  return out;
}

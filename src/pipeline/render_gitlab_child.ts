/**
 * The child pipeline of a gated wave on GitLab (SPEC.md §6.2, §13.1), which
 * the job that decides the wave writes (`run --gitlab-child`) and the wave's
 * gate job runs. What it holds follows from the decision (and whether the
 * wave has a canary at base) alone: when the wave does not wait, its share
 * and group jobs (for a whole wave, which applied already, one job saying
 * so: a child pipeline holds at least one job); when it waits, one manual
 * approve job per approval still needed, chained, and after the last of them
 * the share and group jobs (for a whole wave, its job again; for a wave with
 * a canary, its deciding job again, which applies the canary runs first,
 * SPEC.md §19). Every job is shaped by the rollout file's own code from the
 * spec the job runs (HEAD's), never from anything a plan wrote; the jobs
 * fetch the decision from the parent pipeline's deciding job, or from the
 * child's when it decides again. Pure.
 * @module
 */

import { appliedJobName, childPipelinePath } from "../jobs/approve_job.ts";
import { countOf } from "../count_of.ts";
import { InputError } from "../errors.ts";
import type { Job } from "../jobs/expand_jobs.ts";
import { shellWord } from "../shell_words.ts";
import type { Spec } from "../spec/types.ts";
import { throwProblems } from "./_common.ts";
import {
  gitlabApproveJob,
  gitlabContext,
  gitlabJob,
  type GitlabNeed,
  tagsOf,
} from "./_gitlab_job.ts";
import { toYaml } from "./_yaml.ts";
import type { RenderedFile } from "./rendered_file.ts";

/** What the job that decides the wave found. */
export type ChildState =
  /** The wave goes on: nothing waits. */
  | { waits: false }
  /**
   * The wave waits: approvals `first` to `required` are still to come (those
   * before `first` count already). With `canary` (the wave's canary, read at
   * base, SPEC.md §19), a wave of share or group jobs is decided again after
   * the approvals: that job applies the canary runs, and the share and group
   * jobs take its decision.
   */
  | { waits: true; first: number; required: number; canary?: boolean };

/**
 * Renders the child pipeline of wave `k`.
 * @param spec The spec the job runs (HEAD's).
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, as the job named it.
 * @param k The wave's number.
 * @param state Whether the wave waits, and for which approvals.
 * @returns `.chant/waves/<name>/wave-<k>.gitlab-ci.yml`.
 * @throws {InputError} When the wave has no deciding or whole-wave job, or
 *   for what GitLab cannot express (as the rollout's file would).
 * @example
 * ```ts
 * const jobs = expandJobs(spec, "waves.jsonc");
 * renderGitlabChild(spec, jobs, "waves.jsonc", 2, { waits: true, first: 1, required: 2 });
 * // wave-2-prod-approve-1, wave-2-prod-approve-2, then the share jobs
 * ```
 */
export function renderGitlabChild(
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
  k: number,
  state: ChildState,
): RenderedFile {
  const problems: string[] = [];
  const context = {
    ...gitlabContext(spec, jobs, specFile, problems),
    rules: undefined,
  };
  const decider = deciderOf(jobs, k);
  const decision: GitlabNeed = {
    pipeline: "$PARENT_PIPELINE_ID",
    job: decider.name,
  };
  const file: Record<string, Record<string, unknown>> = {};
  let after: GitlabNeed[] = [];
  if (state.waits) {
    for (let i = state.first; i <= state.required; i++) {
      const [name, job] = gitlabApproveJob(context, decider, i, [
        decision,
        ...after,
      ]);
      file[name] = job;
      after = [{ job: name, artifacts: false }];
    }
  }
  let shares: GitlabNeed[] = [decision, ...after];
  if (decider.kind === "wave") {
    if (state.waits) {
      file[decider.name] = gitlabJob(context, decider, problems, after);
    } else {
      file[appliedJobName(k, decider.waveName)] = appliedJob(spec, decider);
    }
  } else if (state.waits && state.canary) {
    file[decider.name] = gitlabJob(context, decider, problems, after);
    shares = [{ job: decider.name, artifacts: true }];
  }
  for (const job of jobs.filter((job) => job.wave === k)) {
    if (job.kind !== "share" && job.kind !== "group") continue;
    file[job.name] = gitlabJob(context, job, problems, shares);
  }
  throwProblems("gitlab", problems);
  const wave = `wave ${k} "${decider.waveName}"`;
  const header = [
    `Written by chant-wave run --gitlab-child from ${specFile}: the child pipeline of ${wave},`,
    state.waits
      ? `which waits for ${
        countOf(state.required - state.first + 1, "more approval")
      }: play each manual approve job in turn.`
      : "which does not wait.",
  ];
  return {
    path: childPipelinePath(spec.name, k),
    text: toYaml(file, header, { spacedMap: [] }),
  };
}

/** The whole-wave or deciding job of wave `k`. */
function deciderOf(jobs: readonly Job[], k: number): Job {
  const decider = jobs.find((job) =>
    job.wave === k && (job.kind === "decide" || job.kind === "wave")
  );
  if (decider === undefined) {
    throw new InputError(
      `cannot render the GitLab CI child pipeline: the spec has no wave ${k}`,
    );
  }
  return decider;
}

/** The one job of a whole wave's child when it applied without waiting. */
function appliedJob(spec: Spec, wave: Job): Record<string, unknown> {
  const tags = tagsOf(wave.runner, "", []);
  const said =
    `wave ${wave.wave} "${wave.waveName}" applied in ${wave.name}; nothing waited for an approval`;
  return {
    ...(spec.pipeline?.image === undefined
      ? {}
      : { image: spec.pipeline.image }),
    ...(tags === undefined ? {} : { tags }),
    variables: { GIT_STRATEGY: "none" },
    script: [`echo ${shellWord(said)}`],
  };
}

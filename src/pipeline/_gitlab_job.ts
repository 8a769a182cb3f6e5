/**
 * One GitLab CI job from one §6.1 job, the one place that decides a job's
 * shape in the rollout's file and in the child pipelines its jobs write:
 * needs (with the decision's artifacts for share and group jobs), a resource
 * group of its own, image, tags, environment, id tokens, variables with
 * `GIT_DEPTH: "0"`, rules, the setup and install lines, the chant-wave line,
 * and the decision kept as an artifact even when the deciding job waits; and
 * the manual approve job of a wave, in the same shape. Pure.
 * @module
 */

import { approveJobName } from "../jobs/approve_job.ts";
import type { Job } from "../jobs/expand_jobs.ts";
import { type RunnerLabel, type Spec, waveAt } from "../spec/types.ts";
import { gitlabRules } from "./_gitlab_rules.ts";
import { commandLine, installLine, jobWhere } from "./_common.ts";

/** GitLab's default limit on the entries of one job's `needs`. */
export const GITLAB_MAX_NEEDS = 50;

/** What every job of the file shares. */
export interface GitlabContext {
  spec: Spec;
  specFile: string;
  /** The jobs by name, to tell deciding jobs apart. */
  byName: ReadonlyMap<string, Job>;
  /**
   * The jobs' `rules:` (a push or a web pipeline on a branch); none in a child
   * pipeline, which only its parent's jobs start.
   */
  rules?: { if: string }[];
  /** `pipeline.setup` run lines. */
  setup: string[];
}

/**
 * The settings every job of a spec's GitLab files shares.
 * @param spec The spec.
 * @param jobs Its jobs, from `expandJobs(spec, specFile)`.
 * @param specFile The spec's path, relative to the repository root.
 * @param problems Where to add what GitLab cannot express (a `uses:` setup
 *   step, a branch no rules expression can hold).
 * @returns The context, with the rules of the rollout's file.
 */
export function gitlabContext(
  spec: Spec,
  jobs: readonly Job[],
  specFile: string,
  problems: string[],
): GitlabContext {
  const setup: string[] = [];
  (spec.pipeline?.setup ?? []).forEach((step, index) => {
    if ("run" in step) setup.push(step.run);
    else {
      problems.push(
        `pipeline.setup[${index}] uses the action "${step.uses}", which GitLab CI cannot run; use a "run" step`,
      );
    }
  });
  return {
    spec,
    specFile,
    byName: new Map(jobs.map((job) => [job.name, job])),
    rules: gitlabRules(spec.branches, problems),
    setup,
  };
}

/** A GitLab `needs` entry: a job of this pipeline, or one of the parent's. */
export type GitlabNeed =
  | { job: string; artifacts: boolean }
  | { pipeline: string; job: string };

/**
 * Builds the GitLab job for `job`.
 * @param context The file-wide settings.
 * @param job The job.
 * @param problems Where to add what GitLab cannot express.
 * @param needs Its `needs`, when not the §6.1 ones (in a child pipeline).
 * @returns The job's value, ready for YAML.
 */
export function gitlabJob(
  context: GitlabContext,
  job: Job,
  problems: string[],
  needs: readonly GitlabNeed[] = job.needs.map((name) => ({
    job: name,
    artifacts: context.byName.get(name)?.kind === "decide" &&
      (job.kind === "share" || job.kind === "group"),
  })),
): Record<string, unknown> {
  const { spec } = context;
  if (needs.length > GITLAB_MAX_NEEDS) {
    problems.push(
      `job "${job.name}" needs ${needs.length} jobs, more than GitLab's limit of ${GITLAB_MAX_NEEDS}; use fewer shares in wave ${
        job.wave - 1
      }`,
    );
  }
  const out: Record<string, unknown> = {
    needs: needs.map((need) => ({ ...need })),
    resource_group: `${spec.name}/${job.name}`,
    interruptible: false,
  };
  if (spec.pipeline?.image !== undefined) out.image = spec.pipeline.image;
  const tags = runnerTags(job, problems);
  if (tags !== undefined) out.tags = tags;
  if (job.environment !== undefined) out.environment = { ...job.environment };
  if (job.idTokens !== undefined) {
    out.id_tokens = Object.fromEntries(
      Object.entries(job.idTokens).map(([name, aud]) => [name, { aud }]),
    );
  }
  out.variables = {
    GIT_DEPTH: "0",
    ...spec.pipeline?.variables,
    ...job.variables,
  };
  if (context.rules) {
    const delay = soakDelay(spec, job);
    out.rules = context.rules.map((rule) => ({ ...rule, ...delay }));
  }
  out.before_script = [
    ...context.setup,
    installLine(spec, context.specFile),
  ];
  out.script = [commandLine(job, spec)];
  if (job.kind === "decide") {
    out.artifacts = { when: "always", paths: [job.record] };
  }
  return out;
}

/**
 * The manual job that brings the `i`-th approval of the wave `decider` decides
 * (SPEC.md §13.1): played, it approves the digest of the decision record it
 * reads (`--decided`) as `GITLAB_USER_LOGIN`, via its own URL, and passes once
 * `i` distinct approvals count (`--need i`), so each of several required
 * approvals is a click of its own. Blocking (`allow_failure: false`), as the
 * jobs after it need it; on the deciding job's runner, image and variables.
 * @param context The file's settings.
 * @param decider The whole-wave or deciding job of the wave.
 * @param i Which approval, from 1.
 * @param needs Its needs (the decision's job, the approve job before it).
 * @returns The job's name and value, ready for YAML.
 */
export function gitlabApproveJob(
  context: GitlabContext,
  decider: Job,
  i: number,
  needs: readonly GitlabNeed[],
): [string, Record<string, unknown>] {
  const { spec, specFile } = context;
  const name = approveJobName(decider.wave, decider.waveName, i);
  const command = [
    "chant-wave",
    "approve",
    "--spec",
    specFile,
    "--wave",
    String(decider.wave),
    "--decided",
    "--need",
    String(i),
  ];
  const tags = tagsOf(decider.runner, jobWhere(decider), []);
  return [name, {
    needs: needs.map((need) => ({ ...need })),
    when: "manual",
    allow_failure: false,
    resource_group: `${spec.name}/${name}`,
    ...(spec.pipeline?.image === undefined
      ? {}
      : { image: spec.pipeline.image }),
    ...(tags === undefined ? {} : { tags }),
    variables: { GIT_DEPTH: "0", ...spec.pipeline?.variables },
    before_script: [...context.setup, installLine(spec, specFile)],
    script: [
      `${
        commandLine({ command }, spec)
      } --by "$GITLAB_USER_LOGIN" --via "$CI_JOB_URL"`,
    ],
  }];
}

/** GitLab's longest `start_in`, in minutes (one week). */
const LONGEST_START_IN = 7 * 24 * 60;

/**
 * The delay of the first job of a wave with a soak (SPEC.md §19): GitLab
 * starts it that long after the wave before finished (`when: delayed`), so
 * it meets a soak that has passed rather than waiting (exit 3); the job still
 * measures the soak at base itself. At most a week, GitLab's limit.
 */
function soakDelay(
  spec: Spec,
  job: Job,
): { when: "delayed"; start_in: string } | Record<never, never> {
  const soakMs = waveAt(spec, job.wave)?.soakMs ?? 0;
  if (soakMs === 0 || job.wave === 1) return {};
  if (job.kind !== "wave" && job.kind !== "decide") return {};
  const minutes = Math.min(Math.ceil(soakMs / 60_000), LONGEST_START_IN);
  return { when: "delayed", start_in: `${minutes} minutes` };
}

function runnerTags(job: Job, problems: string[]): string[] | undefined {
  return tagsOf(job.runner, jobWhere(job), problems);
}

/**
 * A runner label as GitLab `tags`.
 * @param label The runner label, if any.
 * @param where How messages name the job (`wave 2 "prod"`).
 * @param problems Where to add a runner group, which GitLab cannot express.
 * @returns The tags; `undefined` for none.
 */
export function tagsOf(
  label: RunnerLabel | undefined,
  where: string,
  problems: string[],
): string[] | undefined {
  if (label === undefined) return undefined;
  if (typeof label === "string") return [label];
  if (Array.isArray(label)) return [...label];
  problems.push(
    `${where}: runner group "${label.group}" has no GitLab equivalent; name runner tags instead`,
  );
  return undefined;
}

/**
 * One GitLab CI job from one §6.1 job: needs (with the decision's artifacts for
 * share and group jobs), a resource group of its own, image, tags, environment,
 * id tokens, variables with `GIT_DEPTH: "0"`, rules, the setup and install lines,
 * the chant-wave line, and the decision kept as an artifact even when the
 * deciding job waits. Pure.
 * @module
 */

import type { Job } from "../jobs/expand_jobs.ts";
import type { RunnerLabel, Spec } from "../spec/types.ts";
import { commandLine, installLine, jobWhere } from "./_common.ts";

/** GitLab's default limit on the entries of one job's `needs`. */
export const GITLAB_MAX_NEEDS = 50;

/** What every job of the file shares. */
export interface GitlabContext {
  spec: Spec;
  specFile: string;
  /** The jobs by name, to tell deciding jobs apart. */
  byName: ReadonlyMap<string, Job>;
  rules: { if: string }[];
  /** `pipeline.setup` run lines. */
  setup: string[];
}

/**
 * Builds the GitLab job for `job`.
 * @param context The file-wide settings.
 * @param job The job.
 * @param problems Where to add what GitLab cannot express.
 * @returns The job's value, ready for YAML.
 */
export function gitlabJob(
  context: GitlabContext,
  job: Job,
  problems: string[],
): Record<string, unknown> {
  const { spec } = context;
  if (job.needs.length > GITLAB_MAX_NEEDS) {
    problems.push(
      `job "${job.name}" needs ${job.needs.length} jobs, more than GitLab's limit of ${GITLAB_MAX_NEEDS}; use fewer shares in wave ${
        job.wave - 1
      }`,
    );
  }
  const out: Record<string, unknown> = {
    needs: job.needs.map((name) => ({
      job: name,
      artifacts: context.byName.get(name)?.kind === "decide" &&
        (job.kind === "share" || job.kind === "group"),
    })),
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
  out.rules = context.rules.map((rule) => ({ ...rule }));
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

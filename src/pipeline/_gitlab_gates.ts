/**
 * The GitLab click path in the rollout's file (SPEC.md §6.2, §13.1): a gated
 * wave's deciding job (or whole-wave job) runs with `--gitlab-child`, so it
 * writes the wave's child pipeline beside its decision record, and keeps both
 * as artifacts; its exit 3 (waiting) ends green once that child is written
 * (every other exit code is kept). The wave's gate job, a trigger job, runs
 * that child (`strategy: depend`): the share and group jobs when the wave does
 * not wait, else the manual approve jobs and then them; the next wave needs
 * the gate job, so it runs only once the child succeeded. The share and group
 * jobs of a gated wave live in its child only. Pure.
 * @module
 */

import {
  childPipelinePath,
  gatedWaves,
  gateJobName,
} from "../jobs/approve_job.ts";
import type { Job } from "../jobs/expand_jobs.ts";
import { shellWord } from "../shell_words.ts";
import { commandLine, jobWhere } from "./_common.ts";
import type { GitlabContext } from "./_gitlab_job.ts";

/**
 * The rollout's file with its gated waves run through child pipelines.
 * @param context The file's settings.
 * @param jobs The §6.1 jobs.
 * @param rendered Job name → rendered job, in file order.
 * @param problems Where to add a group whose job would take the name of an
 *   approve job of its wave's child pipeline.
 * @returns The file's jobs, in order: a gated wave's deciding job, then its gate job.
 */
export function withGates(
  context: GitlabContext,
  jobs: readonly Job[],
  rendered: Readonly<Record<string, Record<string, unknown>>>,
  problems: string[],
): Record<string, Record<string, unknown>> {
  const { spec } = context;
  const gated = new Set(gatedWaves(spec).map((wave) => wave.k));
  // Every job of a gated wave is behind its gate job, for the waves after it.
  const behind = new Map<string, string>();
  for (const job of jobs) {
    if (!gated.has(job.wave)) continue;
    behind.set(job.name, gateJobName(job.wave, job.waveName));
    if (job.group !== undefined && /^approve-\d+$/.test(job.group)) {
      problems.push(
        `${
          jobWhere(job)
        }: its job is named like the wave's approve jobs on GitLab; rename the group`,
      );
    }
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const job of jobs) {
    const deciding = job.kind === "decide" || job.kind === "wave";
    if (gated.has(job.wave) && !deciding) continue;
    const value = { ...rendered[job.name] };
    const needs = value.needs as { job: string; artifacts: boolean }[];
    const seen = new Set<string>();
    value.needs = needs.flatMap((need) => {
      const name = behind.get(need.job) ?? need.job;
      if (seen.has(name)) return [];
      seen.add(name);
      return [name === need.job ? need : { job: name, artifacts: false }];
    });
    out[job.name] = value;
    if (!gated.has(job.wave)) continue;
    const child = childPipelinePath(spec.name, job.wave);
    value.script = [childWritingLine(job, context, child)];
    value.artifacts = { when: "always", paths: [job.record, child] };
    out[gateJobName(job.wave, job.waveName)] = gateJob(context, job, child);
  }
  return out;
}

/**
 * The gate job of the wave `decider` decides: it runs the child pipeline the
 * deciding job wrote, and mirrors it (`strategy: depend`). The child's jobs
 * fetch the decision from the parent pipeline, whose id it passes on.
 */
function gateJob(
  context: GitlabContext,
  decider: Job,
  child: string,
): Record<string, unknown> {
  return {
    needs: [{ job: decider.name, artifacts: true }],
    variables: { PARENT_PIPELINE_ID: "$CI_PIPELINE_ID" },
    ...(context.rules
      ? { rules: context.rules.map((rule) => ({ ...rule })) }
      : {}),
    trigger: {
      include: [{ artifact: child, job: decider.name }],
      strategy: "depend",
    },
  };
}

/**
 * The deciding job's chant-wave line with `--gitlab-child`, its exit 3
 * (waiting, SPEC.md §2.1) turned into a green end once the child that waits
 * for the click is written, saying so; every other exit code is kept.
 */
function childWritingLine(
  job: Job,
  context: GitlabContext,
  child: string,
): string {
  const what = `wave ${job.wave} ${job.waveName}`.replace(/[^\w .-]/g, "");
  const gate = gateJobName(job.wave, job.waveName);
  return [
    "set +e",
    commandLine(
      { command: [...job.command, "--gitlab-child"] },
      context.spec,
    ),
    "code=$?",
    "set -e",
    `if [ "$code" -eq 3 ] && [ -f ${shellWord(child)} ]; then`,
    `  echo "${what} waits for an approval: play its manual approve job in the pipeline of ${gate}"`,
    "  exit 0",
    "fi",
    'exit "$code"',
  ].join("\n");
}

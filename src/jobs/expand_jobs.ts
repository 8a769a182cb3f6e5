/**
 * Job expansion (SPEC.md §6.1): turns a spec into the ordered list of CI jobs a
 * pipeline runs: one job per plain wave, or a deciding job plus share jobs or job
 * groups. A rest wave (§11) gets the jobs of its own number only: CI cannot add jobs
 * at run time, so its whole-wave job goes on through further waves itself. Pure;
 * the `jobs` command prints the list and the pipeline renderers read it.
 * @module
 */

import { isRelativeRevision } from "../spec/relative_revision.ts";
import type { Environment, RunnerLabel, Spec, Wave } from "../spec/types.ts";

/** The kinds of job (§6.1). */
export const JOB_KINDS = ["wave", "decide", "share", "group"] as const;
/** A whole wave, a deciding job, a share job or a group job. */
export type JobKind = typeof JOB_KINDS[number];

/** One CI job. */
export interface Job {
  /** `wave-<k>-<wave name>` plus `-decide`, `-share-<i>`, `-<group>` or `-<group>-share-<i>`. */
  name: string;
  /** What the job does. */
  kind: JobKind;
  /** The wave's number, from 1. */
  wave: number;
  /** The wave's name. */
  waveName: string;
  /** The share this job applies, from 1, for share jobs and sliced group jobs. */
  share?: number;
  /** How many shares the wave or group is cut into, alongside `share`. */
  shares?: number;
  /** The job group, for group jobs. */
  group?: string;
  /** Jobs that must succeed first. */
  needs: string[];
  /** The command line, starting with `chant-wave`. */
  command: string[];
  /** The decision record this job writes or reads. */
  record: string;
  /** The runner label, from the group, the wave or the spec. */
  runner?: RunnerLabel;
  /** The deployment environment (none for deciding jobs, which apply nothing). */
  environment?: Environment;
  /** OIDC tokens: name → audience. */
  idTokens?: Record<string, string>;
  /** The wave's environment variables. */
  variables?: Record<string, string>;
  /** The wave is the spec's rest wave (§11): a whole-wave job of it goes on through further waves. */
  rest?: true;
}

/**
 * The decision record's path for wave `k` of the rollout `name` (§9).
 * @example
 * ```ts
 * decisionRecordPath("demo", 2); // ".chant/waves/demo/wave-2.json"
 * ```
 */
export function decisionRecordPath(name: string, k: number): string {
  return `.chant/waves/${name}/wave-${k}.json`;
}

/**
 * Expands a spec into its CI jobs, in order: each wave's jobs need all the last
 * jobs of the previous wave, and share or group jobs need their wave's deciding job.
 * @param spec A valid spec.
 * @param specFile The spec's path as the jobs' commands should name it.
 * @returns The jobs, wave by wave.
 */
export function expandJobs(spec: Spec, specFile: string): Job[] {
  const jobs: Job[] = [];
  let previous: string[] = [];
  for (const wave of spec.waves) {
    const waveJobs = expandWave(spec, specFile, wave, previous);
    jobs.push(...waveJobs);
    const last = waveJobs.filter((job) => job.kind !== "decide");
    previous = last.map((job) => job.name);
  }
  return jobs;
}

function expandWave(
  spec: Spec,
  specFile: string,
  wave: Wave,
  needs: string[],
): Job[] {
  const prefix = `wave-${wave.k}-${wave.name}`;
  const command = [
    "chant-wave",
    "run",
    "--spec",
    specFile,
    "--wave",
    String(wave.k),
  ];
  // A base relative to HEAD would name a commit of the change itself: the
  // job reads the spec's base at the commit before the push instead.
  if (spec.base !== undefined && !isRelativeRevision(spec.base)) {
    command.push("--base", spec.base);
  }
  const common = {
    wave: wave.k,
    waveName: wave.name,
    record: decisionRecordPath(spec.name, wave.k),
    runner: wave.runner ?? spec.runner,
    idTokens: wave.idTokens,
    variables: wave.variables,
    ...(wave.rest ? { rest: true as const } : {}),
  };
  if (wave.jobs === undefined && wave.shares === 1) {
    return [{
      ...common,
      name: prefix,
      kind: "wave",
      needs,
      command,
      environment: wave.environment,
    }];
  }
  const decide: Job = {
    ...common,
    name: `${prefix}-decide`,
    kind: "decide",
    needs,
    command: [...command, "--decide"],
  };
  const after = [decide.name];
  const jobs = [decide];
  if (wave.jobs === undefined) {
    for (let share = 1; share <= wave.shares; share++) {
      jobs.push({
        ...common,
        name: `${prefix}-share-${share}`,
        kind: "share",
        share,
        shares: wave.shares,
        needs: after,
        command: [...command, "--share", String(share)],
        environment: wave.environment,
      });
    }
    return jobs;
  }
  for (const group of wave.jobs) {
    const groupCommand = [...command, "--group", group.name];
    const groupJob = {
      ...common,
      kind: "group" as const,
      group: group.name,
      needs: after,
      runner: group.runner ?? common.runner,
      environment: group.environment ?? wave.environment,
      idTokens: group.idTokens ?? wave.idTokens,
    };
    if (group.shares === 1) {
      jobs.push({
        ...groupJob,
        name: `${prefix}-${group.name}`,
        command: groupCommand,
      });
      continue;
    }
    for (let share = 1; share <= group.shares; share++) {
      jobs.push({
        ...groupJob,
        name: `${prefix}-${group.name}-share-${share}`,
        share,
        shares: group.shares,
        command: [...groupCommand, "--share", String(share)],
      });
    }
  }
  return jobs;
}

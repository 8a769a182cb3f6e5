/**
 * The two pipeline jobs that are not waves (SPEC.md §13): the scheduled job
 * that runs `chant-wave resume` (with `resume.schedule`) and the pull-request
 * job that runs `chant-wave run --record-plans` (when some wave's gate is a
 * `forge` gate, which a review can approve). What they run and when; each
 * renderer writes them its own way. Pure.
 * @module
 */

import { plansFile } from "../forge/plans_handoff.ts";
import type { Spec } from "../spec/types.ts";

/** The scheduled resume job. */
export interface ResumeJob {
  /** The cron schedule (UTC). */
  schedule: string;
  /** `chant-wave resume --spec <file>` (the renderers add `--ledger git`). */
  command: string[];
}

/**
 * The pull-request job that records every wave's plans. It runs the pull
 * request's own code, so it gets no credential that can write the ledger, and
 * its command takes no `--ledger`.
 */
export interface RecordPlansJob {
  /** The branches pull requests target (the spec's `branches`). */
  branches: string[];
  /** `chant-wave run --spec <file> --record-plans`. */
  command: string[];
  /** The plans file it writes: GitLab keeps it as the job's artifact. */
  file: string;
}

/** The jobs beside the waves a spec's pipelines get. */
export interface ForgeJobs {
  /** With `resume.schedule`. */
  resume?: ResumeJob;
  /** When some wave can be approved by review. */
  recordPlans?: RecordPlansJob;
}

/**
 * Whether some wave of the spec can be approved by a pull-request review
 * (`approval: "forge"`, or its old name `pr-review`, at the top level or on a
 * wave, SPEC.md §12), so its pull requests must record their plans.
 * @param spec The spec.
 * @returns `true` when a wave's (or the spec's) approval mode is `forge`.
 * @example
 * ```ts
 * reviewsApprove(spec); // false for a spec without "approval": "forge"
 * ```
 */
export function reviewsApprove(spec: Spec): boolean {
  return [spec, ...spec.waves].some((part) => part.approval === "forge");
}

/**
 * The jobs beside the waves: the scheduled resume job when the spec sets
 * `resume.schedule`, the record-plans job when a wave can be approved by review.
 * @param spec The spec.
 * @param specFile The spec's path as the jobs name it.
 * @returns The jobs; none for a spec that asks for neither.
 * @example
 * ```ts
 * forgeJobs(spec, "waves.jsonc").resume?.command;
 * // ["chant-wave", "resume", "--spec", "waves.jsonc"]
 * ```
 */
export function forgeJobs(spec: Spec, specFile: string): ForgeJobs {
  return {
    ...(spec.resume
      ? {
        resume: {
          schedule: spec.resume.schedule,
          command: ["chant-wave", "resume", "--spec", specFile],
        },
      }
      : {}),
    ...(reviewsApprove(spec)
      ? {
        recordPlans: {
          branches: [...spec.branches],
          command: ["chant-wave", "run", "--spec", specFile, "--record-plans"],
          file: plansFile(spec.name),
        },
      }
      : {}),
  };
}

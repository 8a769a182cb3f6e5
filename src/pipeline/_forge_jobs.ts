/**
 * The two pipeline jobs that are not waves: the scheduled job that runs
 * `chant-wave resume` (SPEC.md §13, with `resume.schedule`) and the job of
 * pull and merge requests, one planning pass with up to two outputs: the plan
 * comment and a status per wave (§18, `run --pull-request`, unless
 * `pullRequests.comment` is false) and the recorded plans (§13,
 * `--record-plans`, when some wave's gate is a `forge` gate, which a review
 * can approve). What they run and when; each renderer writes them its own
 * way. Pure.
 * @module
 */

import { PLANS_JOB, plansFile } from "../forge/plans_handoff.ts";
import type { Spec } from "../spec/types.ts";

/** The scheduled resume job. */
export interface ResumeJob {
  /** The cron schedule (UTC). */
  schedule: string;
  /** `chant-wave resume --spec <file>` (the renderers add `--ledger git`). */
  command: string[];
}

/**
 * The job of pull and merge requests: it plans every wave once, and keeps the
 * plan comment and statuses, records the plans for review approvals, or both.
 * It runs the request's own code, so it gets no credential that can write the
 * ledger, and its command takes no `--ledger`.
 */
export interface RequestJob {
  /**
   * Its name: `record-plans` when it records plans (GitLab's wave jobs find
   * the artifact by it), else `plan`.
   */
  name: string;
  /** The branches requests target (the spec's `branches`). */
  branches: string[];
  /** `chant-wave run --spec <file> [--pull-request] [--record-plans]`. */
  command: string[];
  /** Whether it keeps the plan comment and a status per wave (§18). */
  comment: boolean;
  /** The plans file it writes when it records plans: GitLab keeps it as the job's artifact. */
  file?: string;
}

/** The jobs beside the waves a spec's pipelines get. */
export interface ForgeJobs {
  /** With `resume.schedule`. */
  resume?: ResumeJob;
  /** Unless `pullRequests.comment` is false and no wave can be approved by review. */
  request?: RequestJob;
}

/**
 * Whether the spec's pipelines get the plan job of requests (SPEC.md §18):
 * unless `pullRequests.comment` is false.
 * @param spec The spec.
 * @returns `true` by default.
 * @example
 * ```ts
 * commentsOnRequests({ ...spec, pullRequests: { comment: false } }); // false
 * ```
 */
export function commentsOnRequests(spec: Spec): boolean {
  return spec.pullRequests?.comment !== false;
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
 * `resume.schedule`; the request job when it comments on requests (the
 * default) or a wave can be approved by review, with both outputs when both
 * are wanted.
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
  const comment = commentsOnRequests(spec);
  const record = reviewsApprove(spec);
  return {
    ...(spec.resume
      ? {
        resume: {
          schedule: spec.resume.schedule,
          command: ["chant-wave", "resume", "--spec", specFile],
        },
      }
      : {}),
    ...(comment || record
      ? {
        request: {
          name: record ? PLANS_JOB : "plan",
          branches: [...spec.branches],
          command: [
            ...["chant-wave", "run", "--spec", specFile],
            ...(comment ? ["--pull-request"] : []),
            ...(record ? ["--record-plans"] : []),
          ],
          comment,
          ...(record ? { file: plansFile(spec.name) } : {}),
        },
      }
      : {}),
  };
}

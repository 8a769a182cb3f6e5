/**
 * The scheduled drift job (SPEC.md §19): what it runs (`chant-wave drift
 * --spec <file>`, with `--record` when the spec's `drift.record` asks) and
 * when (`drift.schedule`), and how a GitLab scheduled pipeline tells it from
 * the resume job's (§13): a pipeline schedule's variable. Each renderer writes
 * the job its own way. Pure.
 * @module
 */

import type { Spec } from "../spec/types.ts";

/** The scheduled drift job. */
export interface DriftJob {
  /** The cron schedule (UTC). */
  schedule: string;
  /** Whether it records drifted waves' plans as pending facts (it writes the ledger). */
  record: boolean;
  /** `chant-wave drift --spec <file> [--record]` (the renderers add `--ledger git`). */
  command: string[];
}

/** The variable of a GitLab pipeline schedule that runs the drift job. */
export const SCHEDULE_VARIABLE = "CHANT_WAVE_SCHEDULE";

/**
 * The drift job a spec asks for with `drift.schedule`.
 * @param spec The spec.
 * @param specFile The spec's path as the jobs name it.
 * @returns The job, or `undefined` without `drift`.
 * @example
 * ```ts
 * driftJob(spec, "waves.jsonc")?.command;
 * // ["chant-wave", "drift", "--spec", "waves.jsonc"]
 * ```
 */
export function driftJob(spec: Spec, specFile: string): DriftJob | undefined {
  if (spec.drift === undefined) return undefined;
  const { schedule, record } = spec.drift;
  return {
    schedule,
    record,
    command: [
      "chant-wave",
      "drift",
      "--spec",
      specFile,
      ...(record ? ["--record"] : []),
    ],
  };
}

/**
 * The GitLab rule of a scheduled job: every scheduled pipeline runs the resume
 * job, unless the spec also has a drift job, whose pipeline schedule sets
 * `CHANT_WAVE_SCHEDULE` to `drift` and runs it alone.
 * @param job Which scheduled job.
 * @param spec The spec (whether it has a drift job).
 * @returns The rule's `if`.
 * @example
 * ```ts
 * scheduleRule("drift", spec);
 * // '$CI_PIPELINE_SOURCE == "schedule" && $CHANT_WAVE_SCHEDULE == "drift"'
 * ```
 */
export function scheduleRule(
  job: "resume" | "drift",
  spec: Pick<Spec, "drift">,
): string {
  const scheduled = '$CI_PIPELINE_SOURCE == "schedule"';
  if (job === "drift") {
    return `${scheduled} && $${SCHEDULE_VARIABLE} == "drift"`;
  }
  return spec.drift === undefined
    ? scheduled
    : `${scheduled} && $${SCHEDULE_VARIABLE} != "drift"`;
}

/**
 * A job's outcome (SPEC.md §4.8): the exit code and what applied, failed, moved
 * and was left untried; printed as JSON with `--json`. Also the human lines for
 * failed runs and their output tails.
 * @module
 */

import type { ExitCode } from "../exit_codes.ts";
import type { JobKind } from "../jobs/expand_jobs.ts";
import type { Decision } from "./decision.ts";
import type { FailedRun } from "./plan_runs.ts";
import type { Writer } from "../console/writer.ts";

/** The result of one `chant-wave run`. */
export interface JobResult {
  exitCode: ExitCode;
  /** The wave's number. */
  wave: number;
  job: { kind: JobKind; share?: number; group?: string };
  decision?: Decision;
  applied: string[];
  failed: string[];
  moved: string[];
  untried: string[];
}

/**
 * Logs failed runs: the failure line, then the tail of their output, indented.
 * @param failed The failed runs.
 * @param stderr The log.
 */
export function logFailures(
  failed: readonly FailedRun[],
  stderr: Writer,
): void {
  for (const run of failed) {
    const tail = run.tail.length
      ? ["  last lines:", ...run.tail.map((line) => `  | ${line}`)]
      : [];
    stderr.write([`failed: ${run.message}`, ...tail].join("\n") + "\n");
  }
}

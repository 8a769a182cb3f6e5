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
import { lineLog } from "../console/line_log.ts";
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
 * Logs failed runs: the failure line, then the tail of their output, indented,
 * each line with its control characters made visible.
 * @param failed The failed runs.
 * @param stderr The log.
 */
export function logFailures(
  failed: readonly FailedRun[],
  stderr: Writer,
): void {
  const log = lineLog(stderr);
  for (const run of failed) {
    log(`failed: ${run.message}`);
    if (run.tail.length === 0) continue;
    log("  last lines:");
    for (const line of run.tail) log(`  | ${line}`);
  }
}

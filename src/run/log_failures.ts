/**
 * The human lines for runs that failed to plan or apply: the failure line, then
 * the tail of the step's output, indented, each line with its control
 * characters made visible (by the log).
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { FailedRun } from "./run_outcomes.ts";

/**
 * Logs failed runs: `failed: <message>`, then `  last lines:` and the tail,
 * each line as `  | <line>`.
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

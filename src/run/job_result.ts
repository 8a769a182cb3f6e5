/**
 * A job's outcome (SPEC.md §4.8): the exit code and what applied, failed, moved,
 * was skipped and left untried; printed as JSON with `--json`. Also the human
 * lines for failed runs and their output tails, and a dry run's last line.
 * @module
 */

import type { ExitCode } from "../exit_codes.ts";
import type { JobKind } from "../jobs/expand_jobs.ts";
import type { Decision } from "./decision.ts";
import type { FailedRun } from "./run_outcomes.ts";
import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";

/** A run not applied on purpose, and why (`no changes`, `already applied`). */
export interface SkippedRun {
  target: string;
  reason: string;
}

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
  /** Runs not applied on purpose (SPEC.md §10: `already applied`). */
  skipped: SkippedRun[];
  /**
   * The runs this job was given: a share's or group's slice, the wave's for a
   * whole-wave or deciding job (for the job summary; never printed as JSON).
   */
  runs?: string[];
  /** The error line of each failed run (for the job summary). */
  failures?: { target: string; message: string }[];
  /** What a waiting job waits for (for the job summary). */
  waiting?: WaitingNote;
  /** How many waves the wave's `planWave` reported (`"waves": N`, §11); never printed. */
  wavesFound?: number;
  /** The further waves a whole-wave job of a rest wave went on to (§11). */
  rest?: RestWaveResult[];
}

/** What a waiting job says next to the command that approves its plans. */
export interface WaitingNote {
  /** The command that approves the decided plans, when one would. */
  approve?: string;
  /** The approval rules at base, in words (`sealed by …, 2 distinct approvers, …`). */
  rules: string;
  /** Who counted and who did not (`1 of 2 approvals of …: ann`), when anyone approved. */
  tally?: string;
}

/** A further wave a whole-wave job went on to (SPEC.md §11). */
export interface RestWaveResult {
  /** Its number. */
  wave: number;
  exitCode: ExitCode;
  /** Its set digest, once planned. */
  digest?: string;
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

/**
 * The line a dry run ends with: what it would apply and under which approval.
 * @param decision The decision.
 * @param runs How many runs it would apply.
 * @returns The line.
 * @example
 * ```ts
 * dryRunLine(decision, 2); // "dry run: would apply 2 runs under the approval 3f… by ann; recorded nothing"
 * ```
 */
export function dryRunLine(decision: Decision, runs: number): string {
  const using = decision.status === "approved"
    ? ` under the approval ${decision.approvalId} by ${decision.approvedBy}`
    : "";
  return `dry run: would apply ${runs} run${
    runs === 1 ? "" : "s"
  }${using}; recorded nothing`;
}

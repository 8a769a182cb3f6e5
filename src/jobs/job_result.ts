/**
 * A job's outcome (SPEC.md §4.8): the exit code and what applied, failed, moved,
 * was skipped and left untried; printed as JSON with `--json`, rendered as the
 * job summary and announced by webhook. Types only: the run flow makes it, the
 * CLI and `notify/` read it.
 * @module
 */

import type { ExitCode } from "../exit_codes.ts";
import type { JobKind } from "./expand_jobs.ts";
import type { Decision } from "../gate/decision.ts";

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
  /**
   * What a job waits for before its gate, one line each (the wave before, a
   * soak, a freeze window; for the job summary).
   */
  waitsFor?: string[];
  /** The wave's canary runs that failed in this job (its wave outcome keeps them). */
  canaryFailed?: string[];
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
  /**
   * How many distinct approvals count so far, and how many the rules at base
   * require (so which click comes next).
   */
  approvals: { counted: number; required: number };
}

/** A further wave a whole-wave job went on to (SPEC.md §11). */
export interface RestWaveResult {
  /** Its number. */
  wave: number;
  exitCode: ExitCode;
  /** Its set digest, once planned. */
  digest?: string;
}

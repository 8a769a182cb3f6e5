/**
 * The values planning and applying produce (SPEC.md §4.2, §4.7, §4.10, §11):
 * planned and failed runs, where and how a job plans, and what an apply pass
 * did, so the planning and applying modules share them without importing each
 * other; how an apply asks for a new plan (it exits 75, EX_TEMPFAIL of
 * sysexits.h, on its own, not killed by a timeout or an interrupt); and the
 * human lines for a run that failed (the failure, then its output's tail).
 * @module
 */

import type { Run } from "../spec/types.ts";
import type { ToolContext } from "../tool/tool_context.ts";
import type { PlanFile } from "../plan/plan_file.ts";
import type { StepSettings } from "./run_io.ts";
import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { StepResult } from "../exec/run_step.ts";

/** A run whose plan command succeeded and wrote a valid plan file. */
export interface PlannedRun {
  target: string;
  run: Run;
  /** The plan file, as passed in `{plan}`. */
  planPath: string;
  plan: PlanFile;
}

/** A run that could not be planned or applied. */
export interface FailedRun {
  target: string;
  /** One line naming the target (and the path, for plan-file problems). */
  message: string;
  /** The step's last output lines. */
  tail: string[];
}

/** The outcome of planning some runs. */
export interface PlanOutcome {
  /** Sorted by target, whatever order they finished in. */
  planned: PlannedRun[];
  failed: FailedRun[];
  /** How many waves a `planWave` plans file reported (`"waves": N`, §11). */
  waves?: number;
}

/** Where and how a job plans. */
export interface PlanContext {
  /** `.chant` for real runs, a temporary directory for dry runs. */
  root: string;
  /** Names the job's whole-wave `{runs}`/`{plans}` files: `wave`, `decide`, `share-2`, `group-eu-share-1`. */
  jobTag: string;
  /** Whether a `planWave` command decides the runs (deciding and whole-wave jobs of a `discover` wave). */
  discover: boolean;
  settings: StepSettings;
  /** What the policy at base says about the spec's tool's plans (sqitch), when it says anything. */
  tool?: ToolContext;
}

/** The outcome of applying some runs. */
export interface ApplyOutcome {
  /** Targets applied, in input order. */
  applied: string[];
  failed: FailedRun[];
  /** Targets never started (`onFailure: stop`, or an interrupt). */
  untried: string[];
  /** Targets whose apply exited 75: they ask for the wave to be planned again (§11). */
  replan: string[];
  /** Runs whose apply refused because their target moved since the plan: nothing applied. */
  moved: FailedRun[];
}

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

/** The exit code with which an apply command asks to plan the wave again. */
export const REPLAN_EXIT_CODE = 75;

/**
 * Whether a finished apply step asks for the wave to be planned again.
 * @param step How the step ended.
 * @returns True when it exited 75 by itself.
 * @example
 * ```ts
 * asksReplan({ exitCode: 75, ok: false, timedOut: false, interrupted: false, tail: [] } as StepResult); // true
 * ```
 */
export function asksReplan(
  step: Pick<StepResult, "exitCode" | "timedOut" | "interrupted">,
): boolean {
  return step.exitCode === REPLAN_EXIT_CODE && !step.timedOut &&
    !step.interrupted;
}

/**
 * The values planning and applying produce (SPEC.md §4.2, §4.7, §4.10): planned
 * and failed runs, where and how a job plans, and what an apply pass did. Types
 * only, so the planning and applying modules share them without importing each
 * other.
 * @module
 */

import type { Run } from "../spec/types.ts";
import type { ToolContext } from "../tool/tool_context.ts";
import type { PlanFile } from "../plan/plan_file.ts";
import type { StepSettings } from "./run_io.ts";

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

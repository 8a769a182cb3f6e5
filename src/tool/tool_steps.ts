/**
 * The plan and apply steps of the `tool` shorthand (SPEC.md §15), for every
 * kind: OpenTofu and Terraform (`tofu_steps.ts`) or sqitch (`sqitch_steps.ts`),
 * with the spec's templates filled in for the run. It decides nothing about the
 * wave.
 * @module
 */

import type { StepResult } from "../exec/run_step.ts";
import type { SqitchTool, Tool } from "../spec/types.ts";
import {
  DEFAULT_SQITCH,
  type SqitchSettings,
} from "../sqitch/sqitch_at_base.ts";
import {
  applyWithSqitch,
  newSqitchPass,
  planWithSqitch,
  type SqitchPass,
  type SqitchPlace,
} from "../sqitch/sqitch_steps.ts";
import { applyWithTofu, planWithTofu } from "../tofu/tofu_steps.ts";
import {
  fillButTarget,
  fillForRun,
  runnerFor,
  type ToolIo,
  type ToolRun,
  type ToolSettings,
  type ToolStepResult,
} from "../exec/run_tool_step.ts";
import type { ToolContext } from "./tool_context.ts";

/** One planning pass of a wave's runs: what the policy says, what they share. */
export interface ToolPass {
  /** Whether a sqitch deploy script's not-destructive mark counts. */
  honourMarks: boolean;
  /** How sqitch runs (the spec at base). */
  settings: SqitchSettings;
  /** What the pass's sqitch runs have read already. */
  sqitch: SqitchPass;
}

/**
 * Starts a planning pass: one per planning of a wave's runs, so its runs read
 * a shared plan once and a later pass reads it afresh.
 * @param context What the policy at base says (none: marks do not count,
 *   sqitch runs as by default).
 * @returns The pass.
 */
export function toolPass(context?: ToolContext): ToolPass {
  return {
    honourMarks: context?.honourMarks ?? false,
    settings: context?.sqitch ?? DEFAULT_SQITCH,
    sqitch: newSqitchPass(),
  };
}

/**
 * Where sqitch runs for one run: `dir` and `target` filled in (the program is
 * the spec's at base when planning, the plan's when applying), and the target
 * filled in but for the run's own, for the digest (`fillButTarget`).
 */
function sqitchPlace(tool: SqitchTool, where: ToolRun): SqitchPlace {
  const [dir, target] = fillForRun([tool.dir, tool.target], where);
  const [template] = fillButTarget([tool.target], where);
  return { dir, target, template };
}

/**
 * Plans one run with the spec's tool and writes its plan file at
 * `where.planPath`.
 * @param tool The spec's `tool`.
 * @param where The wave, the run and its plan file path.
 * @param settings Heartbeat and timeout of each step.
 * @param io The edges.
 * @param pass The planning pass (see {@linkcode toolPass}); none: a pass of
 *   its own, in which not-destructive marks do not count.
 * @returns How it ended: the first failed step's result, or ok with the plan
 *   file written. Never rejects for the tool's own failures.
 */
export function planWithTool(
  tool: Tool,
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
  pass: ToolPass = toolPass(),
): Promise<StepResult> {
  if (tool.kind === "sqitch") {
    return planWithSqitch(
      sqitchPlace(tool, where),
      where.planPath,
      {
        honourMarks: pass.honourMarks,
        settings: pass.settings,
        pass: pass.sqitch,
      },
      runnerFor(where, settings, io),
    );
  }
  return planWithTofu(tool, where, settings, io);
}

/**
 * Applies one run's plan with the spec's tool.
 * @param tool The spec's `tool`.
 * @param where The wave, the run and its plan file path.
 * @param settings Heartbeat and timeout.
 * @param io The edges.
 * @returns How the apply ended, `moved` when it refused because the target
 *   moved since the plan (sqitch); never rejects for the tool's own failures.
 */
export function applyWithTool(
  tool: Tool,
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
): Promise<ToolStepResult> {
  if (tool.kind === "sqitch") {
    return applyWithSqitch(
      sqitchPlace(tool, where),
      where.planPath,
      runnerFor(where, settings, io),
    );
  }
  return applyWithTofu(tool, where, settings, io);
}

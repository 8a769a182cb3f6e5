/**
 * Planning (SPEC.md §4.2): runs the plan command of each run, up to `parallel` at
 * once, through the step console, and reads the plan files. A failed plan command
 * or a bad plan file fails that run with a message naming the target and path.
 * @module
 */

import { rm } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { runLimited } from "../exec/run_limited.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_PLAN_FILE_BYTES } from "../limits.ts";
import { planWithTool, type ToolPass, toolPass } from "../tool/tool_steps.ts";
import { sortByTarget } from "../jobs/slice_shares.ts";
import type {
  PerRunCommand,
  Run,
  Spec,
  ToolCommand,
  Wave,
} from "../spec/types.ts";
import { parsePlanFile } from "../plan/plan_file.ts";
import { planFileName, plannedRun, preparePlanDir } from "./plan_path.ts";
import type { RunIo, StepSettings } from "./run_io.ts";
import { runUserStep } from "../exec/run_user_step.ts";
import { planWholeWave } from "./plan_wave.ts";
import type {
  FailedRun,
  PlanContext,
  PlannedRun,
  PlanOutcome,
} from "./run_outcomes.ts";

/**
 * Plans `runs` of `wave`: one `plan` command per run, up to `parallel` at once, or
 * one `planWave` command for all (§4.10), or with `tool` OpenTofu's,
 * Terraform's or sqitch's plan (§15). Each plan file is removed before its
 * command runs, so a command that writes nothing never passes off an old plan.
 * @param spec The spec (its plan command and `name`).
 * @param wave The wave.
 * @param runs The runs to plan.
 * @param context Where plan files go, the job, the settings.
 * @param io The edges.
 * @returns Planned and failed runs; interrupted steps count as failed.
 */
export async function planRuns(
  spec: Spec,
  wave: Wave,
  runs: readonly Run[],
  context: PlanContext,
  io: RunIo,
): Promise<PlanOutcome> {
  const command = spec.plan;
  if (command.kind === "whole-wave") {
    return await planWholeWave(spec, command, wave, runs, context, io);
  }
  const { root, settings } = context;
  const dir = await preparePlanDir(root, spec.name, wave.k, io.cwd);
  const pass = toolPass(context.tool);
  const settled = await runLimited(
    runs,
    settings.parallel,
    (run) => planOne(command, wave, run, dir, settings, io, pass),
    { signal: io.interrupts.signal },
  );
  const planned: PlannedRun[] = [];
  const failed: FailedRun[] = [];
  settled.forEach((outcome, i) => {
    if (outcome.status === "untried") {
      failed.push({
        target: runs[i].target,
        message: `plan of "${runs[i].target}" was interrupted`,
        tail: [],
      });
    } else if ("plan" in outcome.value) planned.push(outcome.value);
    else failed.push(outcome.value);
  });
  return {
    planned: sortByTarget(planned),
    failed,
  };
}

async function planOne(
  command: PerRunCommand | ToolCommand,
  wave: Wave,
  run: Run,
  dir: string,
  settings: StepSettings,
  io: RunIo,
  pass: ToolPass,
): Promise<PlannedRun | FailedRun> {
  const planPath = join(dir, planFileName(run.target));
  const file = resolve(io.cwd, planPath);
  await rm(file, { force: true });
  const step = command.kind === "tool"
    ? await planWithTool(
      command.tool,
      { wave, run, planPath },
      settings,
      io,
      pass,
    )
    : await runUserStep(
      { template: command.argv, phase: "plan", wave, run, planPath },
      settings,
      io,
    );
  if (!step.ok) {
    return {
      target: run.target,
      message: step.failure ?? `plan of "${run.target}" failed`,
      tail: step.tail,
    };
  }
  let text: string;
  try {
    text = await readBounded(file, { maxBytes: MAX_PLAN_FILE_BYTES });
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      target: run.target,
      message: code === "ENOENT"
        ? `plan of "${run.target}" wrote no plan file at "${planPath}"`
        : `plan file of "${run.target}" at "${planPath}" ${
          error instanceof BoundedReadError
            ? error.why
            : `cannot be read: ${(error as Error).message}`
        }`,
      tail: step.tail,
    };
  }
  try {
    return plannedRun(run, parsePlanFile(text), dir);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return {
      target: run.target,
      message: `plan file of "${run.target}" at "${planPath}" ${error.message}`,
      tail: step.tail,
    };
  }
}

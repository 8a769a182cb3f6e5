/**
 * Planning (SPEC.md §4.2, §4.10): runs the plan command of each run, up to
 * `parallel` at once, through the step console, and reads the plan files; or
 * the whole-wave `planWave` in one call through a `{runs}` file, answered with a
 * `{plans}` file (with `discover`, the plans decide the runs; for a rest wave,
 * `"waves": N` says how many waves the plan found, §11), each run still getting
 * its own plan file so a per-run `apply` works after it. A failed plan command
 * or a bad plan file fails that run with a message naming the target and path.
 * @module
 */

import { rm, writeFile } from "node:fs/promises";
import { unlinkSync } from "node:fs";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { lineLog } from "../console/line_log.ts";
import { runLimited } from "../exec/run_limited.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { InputError } from "../errors.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_PLAN_FILE_BYTES, MAX_PLANS_FILE_BYTES } from "../limits.ts";
import { planWithTool, type ToolPass, toolPass } from "../tool/tool_steps.ts";
import { sortByTarget } from "../jobs/slice_shares.ts";
import type {
  PerRunCommand,
  Run,
  Spec,
  ToolCommand,
  Wave,
  WholeWaveCommand,
} from "../spec/types.ts";
import {
  parsePlanFile,
  parsePlansFile,
  type WavePlans,
} from "../plan/plan_file.ts";
import { planFileName, plannedRun, preparePlanDir } from "./plan_path.ts";
import type { RunIo, StepSettings } from "./run_io.ts";
import { runUserStep } from "../exec/run_user_step.ts";
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

/**
 * Removes a plan file an earlier job left, so a plan command that writes none
 * is not read as planned. Synchronous on purpose: one unlink of a path that is
 * usually absent costs less than a hop through the runtime's thread pool, and a
 * 1,000-run wave makes a thousand of them.
 */
function removeStale(file: string, planPath: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return;
    if (code === "EISDIR") {
      throw new InputError(
        `"${planPath}" is a folder where chant-wave writes a run's plan ` +
          `file; .chant/ is chant-wave's own: remove the folder`,
      );
    }
    throw error;
  }
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
  removeStale(file, planPath);
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

/**
 * Plans `runs` (or, for a discovering deciding job, whatever the command reports)
 * with the spec's `planWave` command. Plans of runs outside the job are ignored
 * (and logged), so a tool that always plans everything works in share jobs.
 */
async function planWholeWave(
  spec: Spec,
  command: WholeWaveCommand,
  wave: Wave,
  runs: readonly Run[],
  context: PlanContext,
  io: RunIo,
): Promise<PlanOutcome> {
  const dir = await preparePlanDir(context.root, spec.name, wave.k, io.cwd);
  const runsPath = join(dir, `${context.jobTag}.runs.json`);
  const plansPath = join(dir, `${context.jobTag}.plans.json`);
  await rm(resolve(io.cwd, plansPath), { force: true });
  const runsFile = {
    runs: runs.map(({ target, op }) => ({ target, op })),
    ...(context.discover ? { discover: true } : {}),
  };
  await writeFile(
    resolve(io.cwd, runsPath),
    JSON.stringify(runsFile, null, 2) + "\n",
  );
  const values = { runs: runsPath, plans: plansPath, op: spec.op };
  const step = await runUserStep(
    { template: command.argv, phase: "plan", wave, values },
    context.settings,
    io,
  );
  const failAll = (message: string): PlanOutcome => ({
    planned: [],
    failed: (runs.length ? runs.map((run) => run.target) : [`wave-${wave.k}`])
      .map((target) => ({ target, message, tail: step.tail })),
  });
  if (!step.ok) {
    return failAll(step.failure ?? `planWave of wave ${wave.k} failed`);
  }
  const plans = await readPlans(plansPath, io.cwd);
  if (typeof plans === "string") {
    return failAll(`the plans file "${plansPath}" of wave ${wave.k} ${plans}`);
  }
  const outcome = await splitPlans(spec, runs, plans, { dir, plansPath }, {
    ...context,
    io,
  });
  return plans.waves === undefined
    ? outcome
    : { ...outcome, waves: plans.waves };
}

/**
 * Reads and parses the plans file; a string says what is wrong with it (a bug
 * in the reader is thrown, never reported as a bad file).
 */
async function readPlans(
  plansPath: string,
  cwd: string,
): Promise<WavePlans | string> {
  let text: string;
  try {
    text = await readBounded(resolve(cwd, plansPath), {
      maxBytes: MAX_PLANS_FILE_BYTES,
    });
  } catch (error) {
    return (error as { code?: string }).code === "ENOENT"
      ? "was not written"
      : error instanceof BoundedReadError
      ? error.why
      : (error as Error).message;
  }
  try {
    return parsePlansFile(text);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return error.message;
  }
}

/**
 * Writes each requested (or, with `discover`, reported) run's plan file; runs the
 * plans file lacks fail, plans of runs outside the job are logged and ignored.
 */
async function splitPlans(
  spec: Spec,
  runs: readonly Run[],
  plans: WavePlans,
  files: { dir: string; plansPath: string },
  context: { discover: boolean; io: RunIo },
): Promise<PlanOutcome> {
  const { io } = context;
  const requested = new Map(runs.map((run) => [run.target, run]));
  const planned: PlannedRun[] = [];
  const outside: string[] = [];
  for (const { target, ...plan } of plans.runs) {
    const run = requested.get(target) ??
      (context.discover ? { target, op: spec.op } : undefined);
    requested.delete(target);
    if (run === undefined) {
      outside.push(target);
      continue;
    }
    const one = plannedRun(run, plan, files.dir);
    await writeFile(
      resolve(io.cwd, one.planPath),
      JSON.stringify(plan) + "\n",
    );
    planned.push(one);
  }
  if (outside.length) {
    lineLog(io.stderr)(
      `ignored the plans of runs outside this job: ${outside.join(", ")}`,
    );
  }
  const failed: FailedRun[] = [...requested.keys()].map((target) => ({
    target,
    message: `the plans file "${files.plansPath}" has no plan for "${target}"`,
    tail: [],
  }));
  return { planned: sortByTarget(planned), failed };
}

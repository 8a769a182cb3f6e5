/**
 * The apply commands (SPEC.md §4.7, §4.10): one run at a time, each planned run's
 * `apply` up to `parallel` at once through the step console (after a failure,
 * `onFailure: stop` starts no further run and reports the rest as untried), or
 * the whole-wave `applyWave` in one call through a `{runs}` and a `{plans}` file
 * (exit 0: all applied; else all failed). An apply that exits 75 asks for a new
 * plan (§11): neither applied nor failed.
 * @module
 */

import { runLimited } from "../exec/run_limited.ts";
import { runUserStep } from "../exec/run_user_step.ts";
import type {
  OnFailure,
  PerRunCommand,
  Spec,
  ToolCommand,
  Wave,
  WholeWaveCommand,
} from "../spec/types.ts";
import { applyWithTool } from "../tool/tool_steps.ts";
import {
  type ApplyOutcome,
  asksReplan,
  type PlanContext,
  type PlannedRun,
} from "./run_outcomes.ts";
import type { RunIo } from "./run_io.ts";
import { writeFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { preparePlanDir } from "./plan_path.ts";

/**
 * Applies `planned` runs with the spec's `applyWave` command, in one call.
 * @param spec The spec (its `name` and `op`).
 * @param command Its `applyWave` command.
 * @param wave The wave.
 * @param planned The runs to apply.
 * @param context Where the job's files go, the job, the settings.
 * @param io The edges.
 * @returns All applied when it succeeds, all asking for a new plan when it exits
 *   75, all failed otherwise.
 */
export async function applyWholeWave(
  spec: Spec,
  command: WholeWaveCommand,
  wave: Wave,
  planned: readonly PlannedRun[],
  context: Omit<PlanContext, "discover">,
  io: RunIo,
): Promise<ApplyOutcome> {
  const dir = await preparePlanDir(context.root, spec.name, wave.k, io.cwd);
  const runsPath = join(dir, `${context.jobTag}.apply-runs.json`);
  const plansPath = join(dir, `${context.jobTag}.apply-plans.json`);
  const runs = planned.map(({ run: { target, op } }) => ({ target, op }));
  const plans = planned.map(({ target, plan }) => ({ target, ...plan }));
  await writeFile(
    resolve(io.cwd, runsPath),
    JSON.stringify({ runs }, null, 2) + "\n",
  );
  await writeFile(
    resolve(io.cwd, plansPath),
    JSON.stringify({ runs: plans }, null, 2) + "\n",
  );
  const values = { runs: runsPath, plans: plansPath, op: spec.op };
  const step = await runUserStep(
    { template: command.argv, phase: "apply", wave, values },
    context.settings,
    io,
  );
  const targets = planned.map((p) => p.target);
  const none: ApplyOutcome = {
    applied: [],
    failed: [],
    untried: [],
    replan: [],
    moved: [],
  };
  if (step.ok) return { ...none, applied: targets };
  if (asksReplan(step)) return { ...none, replan: targets };
  const message = step.failure ?? `applyWave of wave ${wave.k} failed`;
  return {
    ...none,
    failed: targets.map((target) => ({ target, message, tail: step.tail })),
  };
}

/**
 * Applies `planned` runs of `wave`: one `apply` command per run with `{plan}`
 * = its plan file, up to `parallel` at once, or with `tool` OpenTofu's or
 * Terraform's apply of the saved plan (§15), or sqitch's deploy of the planned
 * changes (which refuses, as moved, a database that moved since the plan).
 * @param command The spec's per-run apply command, or its tool.
 * @param wave The wave.
 * @param onFailure After a failed apply: start the rest, or stop (`failure_mode.ts`).
 * @param planned The runs to apply, in order.
 * @param context Where the job's files go, the job, the settings.
 * @param io The edges.
 * @param onSettled Told each run's outcome and how long it took, as soon as its
 *   command ended (a run that asks for a new plan did not apply).
 * @param mayStart Asked before each run starts: `false` starts no further run
 *   (a freeze window began, SPEC.md §19); those are left untried.
 * @returns What applied, failed, asked for a new plan, moved and was left untried.
 */
export async function applyRuns(
  command: PerRunCommand | ToolCommand,
  wave: Wave,
  onFailure: OnFailure,
  planned: readonly PlannedRun[],
  context: Omit<PlanContext, "discover">,
  io: RunIo,
  onSettled: (target: string, ok: boolean, durationMs?: number) => void,
  mayStart?: () => boolean,
): Promise<ApplyOutcome> {
  const { settings } = context;
  const settled = await runLimited(
    planned,
    settings.parallel,
    async ({ run, planPath }, _i, control) => {
      const step = command.kind === "tool"
        ? await applyWithTool(
          command.tool,
          { wave, run, planPath },
          settings,
          io,
        )
        : await runUserStep(
          { template: command.argv, phase: "apply", wave, run, planPath },
          settings,
          io,
        );
      const moved = "moved" in step && step.moved === true;
      if (
        !step.ok && !moved && !asksReplan(step) && onFailure === "stop"
      ) {
        control.stop();
      }
      onSettled(run.target, step.ok, step.durationMs);
      // Kept until the wave ends: only what the outcome needs, not the step.
      if (step.ok) return APPLIED;
      if (asksReplan(step)) return REPLAN;
      return {
        message: step.failure ?? `apply of "${run.target}" failed`,
        tail: step.tail,
        moved,
      };
    },
    { signal: io.interrupts.signal, ...(mayStart ? { mayStart } : {}) },
  );
  const outcome: ApplyOutcome = {
    applied: [],
    failed: [],
    untried: [],
    replan: [],
    moved: [],
  };
  settled.forEach((result, i) => {
    const target = planned[i].target;
    if (result.status === "untried") outcome.untried.push(target);
    else if (result.value === APPLIED) outcome.applied.push(target);
    else if (result.value === REPLAN) outcome.replan.push(target);
    else {
      const { moved, ...failure } = result.value;
      (moved ? outcome.moved : outcome.failed).push({ target, ...failure });
    }
  });
  return outcome;
}

/** An apply that succeeded. */
const APPLIED = "applied";
/** An apply that asks for a new plan (exit 75). */
const REPLAN = "replan";

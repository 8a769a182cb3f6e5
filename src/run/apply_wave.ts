/**
 * The whole-wave apply command (SPEC.md §4.10): `applyWave` applies a job's
 * planned runs in one call, through a `{runs}` file and a `{plans}` file. It
 * exits 0 (all applied), 75 (plan the wave again, §11) or anything else (all
 * failed).
 * @module
 */

import { writeFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import type { Spec, Wave, WholeWaveCommand } from "../spec/types.ts";
import { preparePlanDir } from "./plan_path.ts";
import { asksReplan } from "./replan_request.ts";
import type { ApplyOutcome, PlanContext, PlannedRun } from "./run_outcomes.ts";
import type { RunIo } from "./run_io.ts";
import { runUserStep } from "../exec/run_user_step.ts";

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

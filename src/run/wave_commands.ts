/**
 * Whole-wave commands (SPEC.md §4.10): `planWave` plans a job's runs in one call
 * through a `{runs}` file and answers with a `{plans}` file (with `discover`, the
 * plans decide the runs); `applyWave` applies a job's runs in one call. Each run
 * still gets its own plan file, so a per-run `apply` works after a `planWave`.
 * @module
 */

import { rm, writeFile } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { lineLog } from "../console/line_log.ts";
import { sortByTarget } from "../jobs/slice_shares.ts";
import type { Run, Spec, Wave } from "../spec/types.ts";
import type { ApplyOutcome } from "./apply_runs.ts";
import { parsePlansFile } from "./plan_file.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { MAX_PLANS_FILE_BYTES } from "../limits.ts";
import { planFileName, preparePlanDir } from "./plan_path.ts";
import type { FailedRun, PlannedRun, PlanOutcome } from "./plan_runs.ts";
import type { RunIo, StepSettings } from "./run_io.ts";
import { runUserStep } from "./run_user_step.ts";

/**
 * Plans `runs` (or, for a discovering deciding job, whatever the command reports)
 * with the spec's `planWave` command. Plans of runs outside the job are ignored
 * (and logged), so a tool that always plans everything works in share jobs.
 * @param jobTag Names this job's `{runs}`/`{plans}` files (`decide`, `share-2`, …).
 * @param discover Whether the plans file decides the runs.
 * @returns Planned runs sorted by target; when the command fails, every run fails.
 */
export async function planWholeWave(
  spec: Spec,
  wave: Wave,
  runs: readonly Run[],
  context: {
    root: string;
    jobTag: string;
    discover: boolean;
    settings: StepSettings;
  },
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
    { template: spec.planWave!, phase: "plan", values },
    wave,
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
  let entries;
  try {
    entries = parsePlansFile(
      await readBounded(resolve(io.cwd, plansPath), {
        maxBytes: MAX_PLANS_FILE_BYTES,
      }),
    );
  } catch (error) {
    const why = (error as { code?: string }).code === "ENOENT"
      ? "was not written"
      : error instanceof BoundedReadError
      ? error.why
      : (error as Error).message;
    return failAll(`the plans file "${plansPath}" of wave ${wave.k} ${why}`);
  }
  const requested = new Map(runs.map((run) => [run.target, run]));
  const planned: PlannedRun[] = [];
  const failed: FailedRun[] = [];
  const outside: string[] = [];
  for (const { target, ...plan } of entries) {
    const run = requested.get(target) ??
      (context.discover ? { target, op: spec.op } : undefined);
    requested.delete(target);
    if (run === undefined) {
      outside.push(target);
      continue;
    }
    const planPath = join(dir, planFileName(target));
    await writeFile(resolve(io.cwd, planPath), JSON.stringify(plan) + "\n");
    planned.push({ target, run, planPath, plan });
  }
  if (outside.length) {
    lineLog(io.stderr)(
      `ignored the plans of runs outside this job: ${outside.join(", ")}`,
    );
  }
  for (const target of requested.keys()) {
    failed.push({
      target,
      message: `the plans file "${plansPath}" has no plan for "${target}"`,
      tail: [],
    });
  }
  return { planned: sortByTarget(planned), failed };
}

/**
 * Applies `planned` runs with the spec's `applyWave` command, in one call.
 * @returns All applied when it succeeds, all failed when it does not.
 */
export async function applyWholeWave(
  spec: Spec,
  wave: Wave,
  planned: readonly PlannedRun[],
  context: { root: string; jobTag: string; settings: StepSettings },
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
    { template: spec.applyWave!, phase: "apply", values },
    wave,
    context.settings,
    io,
  );
  const targets = planned.map((p) => p.target);
  if (step.ok) return { applied: targets, failed: [], untried: [] };
  const message = step.failure ?? `applyWave of wave ${wave.k} failed`;
  return {
    applied: [],
    failed: targets.map((target) => ({ target, message, tail: step.tail })),
    untried: [],
  };
}

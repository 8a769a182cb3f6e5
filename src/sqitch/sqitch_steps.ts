/**
 * The sqitch steps of the `tool` shorthand and of `plan-file sqitch`: planning
 * asks the database what it has deployed (`sqitch status`), lists the plan
 * (`sqitch plan`), reads each pending change's deploy script (`sqitch show
 * deploy <id>`) and writes the plan file made from them; applying checks that
 * the database is still where the plan found it, then deploys up to the last
 * change planned (`sqitch deploy --to <id>`), never further. Every sqitch
 * command runs in the project's directory (`--chdir`); the ones whose output is
 * read run with `LC_ALL=C` and their stdout is captured, never printed. It
 * decides nothing about the wave.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import type { StepResult } from "../exec/run_step.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_PLAN_FILE_BYTES } from "../limits.ts";
import { MAX_PLAN_CHANGES } from "../plan/plan_file.ts";
import {
  type StepRunner,
  toolFailure,
  type ToolStepResult,
} from "../exec/run_tool_step.ts";
import { sqitchState } from "./_sqitch_output.ts";
import {
  failedStep,
  readDeployed,
  readPlan,
  readScript,
  shownTarget,
  type SqitchPass,
  type SqitchSite,
} from "./_sqitch_queries.ts";
import {
  type PendingChange,
  pendingChanges,
  sqitchPlanFile,
  type SqitchState,
} from "./sqitch_plan_file.ts";

export type { SqitchPass, SqitchSite } from "./_sqitch_queries.ts";
export { newSqitchPass } from "./_sqitch_queries.ts";

/** A plan step that ran and did its work. */
const DONE: StepResult = {
  exitCode: 0,
  ok: true,
  timedOut: false,
  interrupted: false,
  tail: [],
  durationMs: 0,
};

/**
 * Plans one database: what it has deployed, the plan, the deploy script of each
 * pending change; then the plan file written at `planPath` (atomically).
 * @param site The program, project directory and database.
 * @param planPath The plan file, relative to the runner's working directory.
 * @param options Whether a `-- chant-wave: not destructive` mark counts, and
 *   the planning pass whose runs share the plan and scripts (none: nothing shared).
 * @param runner Runs the steps and names the run.
 * @returns The first failed step (`plan of "<target>": cannot read what
 *   "<database>" has deployed: "sqitch status" exited 2`), or ok with the plan
 *   file written; never rejects for sqitch's own failures.
 */
export async function planWithSqitch(
  site: SqitchSite,
  planPath: string,
  options: { honourMarks: boolean; pass?: SqitchPass },
  runner: StepRunner,
): Promise<StepResult> {
  const deployed = await readDeployed(site, "plan", runner);
  if (!deployed.ok) return failedStep("plan", runner, deployed);
  const plan = await readPlan(site, runner, options.pass);
  if (!plan.ok) return failedStep("plan", runner, plan);
  let pending;
  try {
    pending = pendingChanges(plan.value, deployed.value);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return toolFailure("plan", runner.label, error.message, []);
  }
  if (pending.length > MAX_PLAN_CHANGES) {
    return toolFailure(
      "plan",
      runner.label,
      `${pending.length} changes are pending; chant-wave plans at most ${MAX_PLAN_CHANGES} at once`,
      [],
    );
  }
  const judged: PendingChange[] = [];
  for (const change of pending) {
    const script = await readScript(site, change, runner, options.pass);
    if (!script.ok) return failedStep("plan", runner, script);
    judged.push({ ...change, script: script.value });
  }
  const file = sqitchPlanFile({
    project: plan.value[0].project,
    deployed: deployed.value,
    pending: judged,
    honourMarks: options.honourMarks,
  });
  try {
    await writeFileAtomic(
      resolve(runner.cwd, planPath),
      `${JSON.stringify(file)}\n`,
    );
  } catch (error) {
    return toolFailure(
      "plan",
      runner.label,
      `cannot write the plan file ${JSON.stringify(planPath)}: ${
        (error as Error).message
      }`,
      [],
    );
  }
  return DONE;
}

/** A change id as messages show it. */
function idOf(id: string | null): string {
  return id === null ? "nothing" : id.slice(0, 12);
}

/**
 * Applies one database's plan: reads the plan file's apply state, checks that
 * the database still has deployed what it had at plan time, then `sqitch deploy
 * --to <last planned change>`.
 * @param site The program, project directory and database.
 * @param planPath The plan file, relative to the runner's working directory.
 * @param runner Runs the steps and names the run.
 * @returns How the deploy ended; `moved` (and nothing deployed) when the
 *   database moved since the plan: `apply of "<target>": "<database>" moved
 *   since the plan: it had deployed 1a2b3c4d5e6f, it has deployed 9f8e7d6c5b4a
 *   now; nothing deployed`. Never rejects for sqitch's own failures.
 */
export async function applyWithSqitch(
  site: SqitchSite,
  planPath: string,
  runner: StepRunner,
): Promise<ToolStepResult> {
  const planned = await readState(planPath, runner);
  if (typeof planned === "string") {
    return toolFailure(
      "apply",
      runner.label,
      `the plan file ${JSON.stringify(planPath)} ${planned}`,
      [],
    );
  }
  if (planned.deployTo === null) return DONE;
  const now = await readDeployed(site, "apply", runner);
  if (!now.ok) return failedStep("apply", runner, now);
  if (now.value !== planned.deployed) {
    return {
      ...toolFailure(
        "apply",
        runner.label,
        `${shownTarget(site)} moved since the plan: it had deployed ${
          idOf(planned.deployed)
        }, it has deployed ${idOf(now.value)} now; nothing deployed`,
        [],
      ),
      moved: true,
    };
  }
  return await runner.run({
    argv: [
      site.binary,
      `--chdir=${site.dir}`,
      "deploy",
      `--target=${site.target}`,
      `--to=${planned.deployTo}`,
    ],
    phase: "apply",
  });
}

/** The apply state of the plan file, or why it cannot be read (a bug is thrown). */
async function readState(
  planPath: string,
  runner: StepRunner,
): Promise<SqitchState | string> {
  let text: string;
  try {
    text = await readBounded(resolve(runner.cwd, planPath), {
      maxBytes: MAX_PLAN_FILE_BYTES,
    });
  } catch (error) {
    return error instanceof BoundedReadError
      ? error.why
      : (error as Error).message;
  }
  try {
    return sqitchState(text);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return error.message;
  }
}

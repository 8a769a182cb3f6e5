/**
 * The OpenTofu and Terraform steps of the `tool` shorthand (SPEC.md §15):
 * planning one run is `<binary> -chdir=<dir> plan -input=false -no-color
 * -out=<plan file>.tfplan [args…]`, then `show -json` of that saved plan with its stdout captured to a
 * file (never printed: it is large and holds sensitive values), then the plan
 * file made from it; applying is `apply -input=false -no-color` of the saved
 * plan. Paths given to the tool are absolute, since `-chdir` moves its working
 * directory. It fills no spec templates beyond `dir` and `args` and decides
 * nothing about the wave.
 * @module
 */

import { open, rm } from "node:fs/promises";
import { delimiter } from "node:path";
import {
  checkoutOf,
  programInCheckout,
  trustedPath,
} from "../fs/program_path.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import type { StepResult } from "../exec/run_step.ts";
import type { TofuTool } from "../spec/types.ts";
import {
  fillButTarget,
  fillForRun,
  runnerFor,
  toolFailure,
  type ToolIo,
  type ToolRun,
  type ToolSettings,
} from "../exec/run_tool_step.ts";
import { MAX_PLAN_DOCUMENT } from "./_plan_document.ts";
import { ShowJsonError, writeToolPlanFile } from "./write_tool_plan_file.ts";

/** The files of one run's plan: the saved plan and the captured `show -json`. */
function filesOf(planPath: string, cwd: string) {
  const planFile = resolve(cwd, planPath);
  return {
    planFile,
    tfplan: `${planFile}.tfplan`,
    showJson: `${planFile}.tfplan.json`,
    showJsonShownAs: `${planPath}.tfplan.json`,
  };
}

/** The spec's `dir` and `args` filled in for one run. */
function filled(tool: TofuTool, where: ToolRun) {
  const [dir, ...args] = fillForRun([tool.dir, ...tool.args], where);
  return { dir, args };
}

/**
 * Runs `<binary> -chdir=<dir> <words…>` as a step of the run. The program
 * judges whether the plan is destructive (`show -json`), so it never comes
 * from the checkout (`fs/program_path.ts`): a path into it fails the step, and
 * a name is looked up on `PATH` without the checkout's directories.
 */
async function runTofuStep(
  tool: TofuTool,
  where: ToolRun,
  phase: "plan" | "apply",
  words: readonly string[],
  settings: ToolSettings,
  io: ToolIo,
  captureStdout?: (chunk: Uint8Array) => Promise<void>,
): Promise<StepResult> {
  const checkout = checkoutOf(io.cwd);
  const inside = programInCheckout(
    "the program",
    tool.binary,
    io.cwd,
    checkout,
  );
  if (inside !== undefined) {
    return toolFailure(phase, where.run.target, inside, []);
  }
  return await runnerFor(where, settings, io).run({
    argv: [tool.binary, `-chdir=${filled(tool, where).dir}`, ...words],
    phase,
    env: { PATH: trustedPath(io.env.PATH, checkout).join(delimiter) },
    defaultEnv: { TF_IN_AUTOMATION: "1" },
    ...(captureStdout ? { captureStdout } : {}),
  });
}

/**
 * A new file, readable by its owner only, that takes at most `MAX_PLAN_DOCUMENT`
 * bytes and then only counts; a leftover file (or link) at `path` is removed first.
 */
async function cappedFile(path: string) {
  await rm(path, { force: true });
  const handle = await open(path, "wx", 0o600);
  let size = 0;
  let problem: string | undefined;
  return {
    write: async (chunk: Uint8Array) => {
      size += chunk.length;
      if (problem !== undefined) return;
      if (size > MAX_PLAN_DOCUMENT) problem = "printed more than 64 MiB";
      else {
        await handle.write(chunk).catch((error: Error) => {
          problem = `could not be saved: ${error.message}`;
        });
      }
    },
    close: async () => {
      await handle.close();
      return problem;
    },
  };
}

/**
 * Plans one run with the tool: `plan -out`, `show -json` captured to
 * `<plan file>.tfplan.json`, then the plan file written from it (that capture
 * is removed afterwards; the saved plan `<plan file>.tfplan` stays for the apply).
 * @param tool The spec's `tool`.
 * @param where The wave, the run and its plan file path.
 * @param settings Heartbeat and timeout of each step.
 * @param io The edges.
 * @returns How it ended: the first failed step's result (a failed `show -json`
 *   reads `plan of "<target>": "<binary> show -json" exited 1`), a bad `show
 *   -json` output as `plan of "<target>": "<path>" is not JSON: …`, or ok with
 *   the plan file written. Never rejects for the tool's own failures.
 */
export async function planWithTofu(
  tool: TofuTool,
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
): Promise<StepResult> {
  const files = filesOf(where.planPath, io.cwd);
  await rm(files.tfplan, { force: true });
  const plan = await runTofuStep(
    tool,
    where,
    "plan",
    [
      "plan",
      "-input=false",
      "-no-color",
      `-out=${files.tfplan}`,
      ...filled(tool, where).args,
    ],
    settings,
    io,
  );
  if (!plan.ok) return plan;
  try {
    return await showAndConvert(tool, where, files, settings, io);
  } finally {
    await rm(files.showJson, { force: true });
  }
}

/** `show -json` of the saved plan, captured, then the plan file written from it. */
async function showAndConvert(
  tool: TofuTool,
  where: ToolRun,
  files: ReturnType<typeof filesOf>,
  settings: ToolSettings,
  io: ToolIo,
): Promise<StepResult> {
  const { target } = where.run;
  const step = `"${tool.binary} show -json"`;
  let capture: Awaited<ReturnType<typeof cappedFile>>;
  try {
    capture = await cappedFile(files.showJson);
  } catch (error) {
    const path = JSON.stringify(files.showJsonShownAs);
    return toolFailure(
      "plan",
      target,
      `cannot save ${step} at ${path}: ${(error as Error).message}`,
      [],
    );
  }
  let show: StepResult;
  let problem: string | undefined;
  try {
    show = await runTofuStep(
      tool,
      where,
      "plan",
      [
        "show",
        "-json",
        files.tfplan,
      ],
      settings,
      io,
      capture.write,
    );
  } finally {
    problem = await capture.close();
  }
  const label = `plan of ${JSON.stringify(target)}`;
  if (!show.ok) {
    if (show.interrupted || !show.failure?.startsWith(label)) return show;
    const how = show.failure.slice(label.length);
    return { ...show, failure: `${label}: ${step}${how}` };
  }
  if (problem !== undefined) {
    return toolFailure("plan", target, `${step} ${problem}`, show.tail);
  }
  try {
    await writeToolPlanFile({
      showJson: files.showJson,
      planFile: files.planFile,
      showJsonShownAs: files.showJsonShownAs,
      planFileShownAs: where.planPath,
      place: fillButTarget([tool.dir, ...tool.args], where),
    });
    return show;
  } catch (error) {
    if (!(error instanceof ShowJsonError)) throw error;
    return toolFailure("plan", target, error.message, show.tail);
  }
}

/**
 * Applies one run's saved plan: `<binary> -chdir=<dir> apply -input=false
 * -no-color <plan file>.tfplan`.
 * @param tool The spec's `tool`.
 * @param where The wave, the run and its plan file path.
 * @param settings Heartbeat and timeout.
 * @param io The edges.
 * @returns How the apply ended; never rejects for the tool's own failures.
 */
export function applyWithTofu(
  tool: TofuTool,
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
): Promise<StepResult> {
  const { tfplan } = filesOf(where.planPath, io.cwd);
  return runTofuStep(
    tool,
    where,
    "apply",
    [
      "apply",
      "-input=false",
      "-no-color",
      tfplan,
    ],
    settings,
    io,
  );
}

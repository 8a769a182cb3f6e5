/**
 * The steps of the `tool` shorthand (SPEC.md §15): planning one run is
 * `<binary> -chdir=<dir> plan -input=false -no-color -out=<plan file>.tfplan
 * [args…]`, then `show -json` of that saved plan with its stdout captured to a
 * file (never printed: it is large and holds sensitive values), then the plan
 * file made from it; applying is `apply -input=false -no-color` of the saved
 * plan. Paths given to the tool are absolute, since `-chdir` moves its working
 * directory. It fills no spec templates beyond `dir` and `args` and decides
 * nothing about the wave.
 * @module
 */

import { open, rm } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import type { Clock } from "../clock.ts";
import type { Writer } from "../console/writer.ts";
import { fillTemplate, stepEnv } from "../exec/fill_template.ts";
import type { Interrupts } from "../exec/interrupts.ts";
import { runStep, type StepResult } from "../exec/run_step.ts";
import type { Spawner } from "../exec/spawner.ts";
import type { Run, Tool, Wave } from "../spec/types.ts";
import { MAX_PLAN_DOCUMENT } from "./_plan_document.ts";
import { ShowJsonError, writeToolPlanFile } from "./write_tool_plan_file.ts";

/** The edges the tool steps use (a wave run's `RunIo` has them all). */
export interface ToolIo {
  /** The working directory: plan paths and `dir` are relative to it. */
  cwd: string;
  /** The environment the tool inherits. */
  env: Record<string, string | undefined>;
  /** The step console. */
  stderr: Writer;
  clock: Clock;
  interrupts: Interrupts;
  /** The process seam; the real one by default. */
  spawner?: Spawner;
}

/** Heartbeat and timeout of each step, in milliseconds (0 = off). */
export interface ToolSettings {
  heartbeatMs: number;
  timeoutMs: number;
}

/** One run of a wave and its plan file (relative to the working directory). */
export interface ToolRun {
  wave: Wave;
  run: Run;
  planPath: string;
}

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
function filled(tool: Tool, { wave, run }: ToolRun) {
  const values = { target: run.target, op: run.op, wave: wave.name, k: wave.k };
  const [dir, ...args] = fillTemplate([tool.dir, ...tool.args], values);
  return { dir, args };
}

/** Runs `<binary> -chdir=<dir> <words…>` as a step of the run. */
function runToolStep(
  tool: Tool,
  where: ToolRun,
  phase: "plan" | "apply",
  words: readonly string[],
  settings: ToolSettings,
  io: ToolIo,
  captureStdout?: (chunk: Uint8Array) => Promise<void>,
): Promise<StepResult> {
  const { wave, run, planPath } = where;
  const env = stepEnv(io.env, {
    name: wave.name,
    k: wave.k,
    phase,
    target: run.target,
    op: run.op,
    plan: planPath,
  });
  env.TF_IN_AUTOMATION ??= "1";
  return runStep({
    argv: [tool.binary, `-chdir=${filled(tool, where).dir}`, ...words],
    cwd: io.cwd,
    env,
    phase,
    target: run.target,
    heartbeatMs: settings.heartbeatMs,
    timeoutMs: settings.timeoutMs,
    interrupts: io.interrupts,
    clock: io.clock,
    writer: io.stderr,
    spawner: io.spawner,
    captureStdout,
  });
}

/** A plan that failed around the tool: its `show -json` output could not be saved or used. */
function failed(target: string, why: string, tail: string[]): StepResult {
  return {
    exitCode: 1,
    ok: false,
    timedOut: false,
    interrupted: false,
    failure: `plan of ${JSON.stringify(target)}: ${why}`,
    tail,
    durationMs: 0,
  };
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
export async function planWithTool(
  tool: Tool,
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
): Promise<StepResult> {
  const files = filesOf(where.planPath, io.cwd);
  await rm(files.tfplan, { force: true });
  const plan = await runToolStep(
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
  tool: Tool,
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
    return failed(
      target,
      `cannot save ${step} at ${path}: ${(error as Error).message}`,
      [],
    );
  }
  let show: StepResult;
  let problem: string | undefined;
  try {
    show = await runToolStep(
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
    return failed(target, `${step} ${problem}`, show.tail);
  }
  try {
    await writeToolPlanFile({
      showJson: files.showJson,
      planFile: files.planFile,
      showJsonShownAs: files.showJsonShownAs,
      planFileShownAs: where.planPath,
    });
    return show;
  } catch (error) {
    if (!(error instanceof ShowJsonError)) throw error;
    return failed(target, error.message, show.tail);
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
export function applyWithTool(
  tool: Tool,
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
): Promise<StepResult> {
  const { tfplan } = filesOf(where.planPath, io.cwd);
  return runToolStep(
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

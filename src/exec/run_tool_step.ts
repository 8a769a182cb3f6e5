/**
 * What every adapter of the `tool` shorthand (SPEC.md §15) shares: the edges and
 * settings of its steps, the spec's templates filled in for one run, the step
 * runner of one run (the one runner of user commands, `exec/run_user_step.ts`,
 * bound to the run), a step result for a failure around the tool, and a
 * bounded capture of a step's stdout. It knows no tool's commands.
 * @module
 */

import { fillTemplate, type TemplateValues } from "./fill_template.ts";
import type { StepResult } from "./run_step.ts";
import { runUserStep, type StepIo, type StepTimers } from "./run_user_step.ts";
import type { Run, Wave } from "../spec/types.ts";

/** The edges the tool steps use (a wave run's `RunIo` has them all). */
export type ToolIo = StepIo;

/** Heartbeat and timeout of each step, in milliseconds (0 = off). */
export type ToolSettings = Required<StepTimers>;

/** One run of a wave and its plan file (relative to the working directory). */
export interface ToolRun {
  wave: Pick<Wave, "name" | "k">;
  run: Run;
  planPath: string;
}

/**
 * How a tool's apply ended: a step result, and `moved` when the apply refused
 * because what it would change moved since the plan (then nothing was applied).
 */
export interface ToolStepResult extends StepResult {
  moved?: true;
}

/** One step of a tool: its argv (filled already), phase, and environment added to the run's. */
export interface ToolStep {
  argv: readonly string[];
  phase: "plan" | "apply";
  /** Set over the environment (a value `undefined` removes the variable). */
  env?: Record<string, string | undefined>;
  /** Set only where the environment has no value. */
  defaultEnv?: Record<string, string>;
  /** Takes stdout instead of printing it (see `runStep`). */
  captureStdout?: (chunk: Uint8Array) => Promise<void>;
}

/**
 * Fills the spec's templates of a tool (`dir`, `args`, `target`) for one run.
 * @param template The elements.
 * @param where The run.
 * @returns The filled elements, in order.
 * @example
 * ```ts
 * fillForRun(["live/{target}"], { wave: { name: "dev", k: 1 }, run: { target: "a", op: "x" }, planPath: "p" });
 * // ["live/a"]
 * ```
 */
export function fillForRun(
  template: readonly string[],
  { wave, run }: ToolRun,
): string[] {
  const values: TemplateValues = {
    target: run.target,
    op: run.op,
    wave: wave.name,
    k: wave.k,
  };
  return fillTemplate(template, values);
}

/**
 * Fills the spec's templates of a tool for the plan digest: every value but
 * the run's target (`live/prod/{target}`). The wave's name, number and the
 * run's op choose where a plan applies as much as the target does, and an
 * approval binds the run's target and the wave's number only; leaving
 * `{target}` as written keeps the digests of one wave's targets in the same
 * state equal.
 * @param template The elements.
 * @param where The run.
 * @returns The elements, `{target}` as written.
 * @example
 * ```ts
 * fillButTarget(["live/{wave}/{target}"], { wave: { name: "dev", k: 1 }, run: { target: "a", op: "x" }, planPath: "p" });
 * // ["live/dev/{target}"]
 * ```
 */
export function fillButTarget(
  template: readonly string[],
  where: ToolRun,
): string[] {
  // One pass: the "{target}" given as the value stays as written.
  return fillForRun(template, {
    ...where,
    run: { ...where.run, target: "{target}" },
  });
}

/** Runs the steps of one run of a tool, and names the run in messages. */
export interface StepRunner {
  /** The run's target, as the step console and messages name it. */
  label: string;
  /** The working directory: relative paths resolve from here. */
  cwd: string;
  /** The environment the steps inherit (before a step's own additions). */
  env: Readonly<Record<string, string | undefined>>;
  /** Runs one step; never rejects for the tool's own failures. */
  run(step: ToolStep): Promise<StepResult>;
}

/**
 * The step runner of one run of a wave: the one runner of user commands
 * (`runUserStep`) with the run's `CHANT_WAVE_*` environment (SPEC.md §3.4),
 * the step's additions, and the step console naming the run.
 * @param where The run.
 * @param settings Heartbeat and timeout.
 * @param io The edges.
 * @returns The runner, labelled with the run's target.
 */
export function runnerFor(
  where: ToolRun,
  settings: ToolSettings,
  io: ToolIo,
): StepRunner {
  return {
    label: where.run.target,
    cwd: io.cwd,
    env: io.env,
    run: (step) =>
      runUserStep(
        { ...step, wave: where.wave, run: where.run, planPath: where.planPath },
        settings,
        io,
      ),
  };
}

/**
 * A run that failed around the tool (its output could not be used, its state
 * moved): exit 1, with the reason after `<phase> of "<target>": `.
 * @param phase `plan` or `apply`.
 * @param target The run's target.
 * @param why The reason.
 * @param tail The last lines of the tool's output.
 * @returns The failed step result.
 * @example
 * ```ts
 * toolFailure("plan", "eu", "no such file", []).failure; // 'plan of "eu": no such file'
 * ```
 */
export function toolFailure(
  phase: "plan" | "apply",
  target: string,
  why: string,
  tail: string[],
): StepResult {
  return {
    exitCode: 1,
    ok: false,
    timedOut: false,
    interrupted: false,
    failure: `${phase} of ${JSON.stringify(target)}: ${why}`,
    tail,
    durationMs: 0,
  };
}

/** A step's stdout kept in memory, up to a limit. */
export interface StdoutCapture {
  /** Hand to `ToolStep.captureStdout`. */
  write(chunk: Uint8Array): Promise<void>;
  /** The bytes kept, or undefined when the step printed more than the limit. */
  bytes(): Uint8Array | undefined;
}

/**
 * Keeps a step's stdout in memory; past `limit` bytes it only counts.
 * @param limit The most bytes kept.
 * @returns The capture.
 * @example
 * ```ts
 * const out = captureStdout(4);
 * await out.write(new Uint8Array([1, 2]));
 * out.bytes(); // Uint8Array [1, 2]
 * ```
 */
export function captureStdout(limit: number): StdoutCapture {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk.slice());
      return Promise.resolve();
    },
    bytes() {
      if (size > limit) return undefined;
      const all = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.length;
      }
      return all;
    },
  };
}

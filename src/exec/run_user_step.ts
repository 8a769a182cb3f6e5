/**
 * The one way a user's command (or a tool's, SPEC.md §15) is started: the
 * spec's argv template filled for the wave and the run (or a tool's argv, taken
 * as it is), the `CHANT_WAVE_*` environment of §3.4 with the step's additions,
 * and the step console with the job's heartbeat, timeout and interrupts. Plan,
 * apply, whole-wave, hook and tool steps all start here; what a failure means
 * is the caller's.
 * @module
 */

import type { Clock } from "../clock.ts";
import type { Writer } from "../console/writer.ts";
import {
  fillTemplate,
  stepEnv,
  type StepPhase,
  type TemplateValues,
} from "./fill_template.ts";
import type { Interrupts } from "./interrupts.ts";
import { runStep, type StepResult } from "./run_step.ts";
import type { Spawner } from "./spawner.ts";
import type { Run, Wave } from "../spec/types.ts";

/** The edges a step runs through (a wave run's `RunIo` and the CLI's `CliIo` have them all). */
export interface StepIo {
  /** The working directory the command starts in. */
  cwd: string;
  /** The environment the command inherits. */
  env: Record<string, string | undefined>;
  /** The step console. */
  stderr: Writer;
  clock: Clock;
  /** Stops the step on SIGINT/SIGTERM. */
  interrupts: Interrupts;
  /** The process seam; the real one by default. */
  spawner?: Spawner;
}

/** The step's heartbeat and timeout, in milliseconds (0 = off). */
export interface StepTimers {
  /** @default {60000} (`runStep`'s) */
  heartbeatMs?: number;
  /** @default {0} */
  timeoutMs?: number;
}

/**
 * What runs: an argv template of the spec's, filled here with `{wave}`, `{k}`,
 * the run's `{target}`, `{op}` and `{plan}` and the given `values`; or an argv
 * already filled (a tool's words, whose paths must never be filled again).
 */
export type StepCommand =
  | { template: readonly string[]; values?: TemplateValues }
  | { argv: readonly string[] };

/** One step to run. */
export type UserStep = StepCommand & {
  phase: StepPhase;
  /**
   * The wave the step runs for: `{wave}`, `{k}` and the `CHANT_WAVE_*`
   * variables. Absent outside a wave (`chant-wave plan-file`): the environment
   * is then the command's own, with only the step's additions.
   */
  wave?: Pick<Wave, "name" | "k">;
  /** The run, for per-run commands; absent for whole-wave and hook commands. */
  run?: Run;
  /** The run's plan file, for per-run commands. */
  planPath?: string;
  /** What the step console calls a step without a run (a hook's name); default `wave <k>`. */
  label?: string;
  /** Set over the environment (a value `undefined` removes the variable). */
  env?: Record<string, string | undefined>;
  /** Set only where the environment has no value. */
  defaultEnv?: Record<string, string>;
  /** Takes stdout instead of printing it (see `runStep`). */
  captureStdout?: (chunk: Uint8Array) => Promise<void>;
};

/**
 * Runs a step and waits for it.
 * @param step The command, the wave and run it is for, and the environment it adds.
 * @param timers Heartbeat and timeout.
 * @param io The edges.
 * @returns How the step ended; never rejects for the command's own failures.
 * @throws {Error} When a template uses a placeholder the step has no value for
 *   (a bug: the spec parser refuses such templates).
 */
export function runUserStep(
  step: UserStep,
  timers: StepTimers,
  io: StepIo,
): Promise<StepResult> {
  const { run, planPath, phase, wave } = step;
  const perRun = run === undefined
    ? {}
    : { target: run.target, op: run.op, plan: planPath };
  const argv = "argv" in step ? step.argv : fillTemplate(step.template, {
    ...step.values,
    ...perRun,
    ...(wave ? { wave: wave.name, k: wave.k } : {}),
  });
  return runStep({
    argv,
    cwd: io.cwd,
    env: envOf(step, io.env),
    phase,
    target: run?.target ?? step.label ??
      (wave ? `wave ${wave.k}` : phase),
    ...(timers.heartbeatMs === undefined
      ? {}
      : { heartbeatMs: timers.heartbeatMs }),
    ...(timers.timeoutMs === undefined ? {} : { timeoutMs: timers.timeoutMs }),
    interrupts: io.interrupts,
    clock: io.clock,
    writer: io.stderr,
    ...(io.spawner ? { spawner: io.spawner } : {}),
    ...(step.captureStdout ? { captureStdout: step.captureStdout } : {}),
  });
}

/**
 * The step's environment: the parent's, the wave's `CHANT_WAVE_*` variables
 * (inherited ones dropped first) when it runs for a wave, then the step's
 * defaults where unset and its additions over everything.
 */
function envOf(
  step: UserStep,
  parent: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const { run, wave } = step;
  const env: Record<string, string> = {};
  if (wave) {
    Object.assign(
      env,
      stepEnv(parent, {
        name: wave.name,
        k: wave.k,
        phase: step.phase,
        ...(run === undefined
          ? {}
          : { target: run.target, op: run.op, plan: step.planPath }),
      }),
    );
  } else {
    for (const [name, value] of Object.entries(parent)) {
      if (value !== undefined) env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(step.defaultEnv ?? {})) {
    env[name] ??= value;
  }
  for (const [name, value] of Object.entries(step.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

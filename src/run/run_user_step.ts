/**
 * Runs one of the user's commands for a wave: fills its argv template, builds the
 * `CHANT_WAVE_*` environment, and runs it through the step console with the job's
 * heartbeat, timeout and interrupts. The one place plan, apply, whole-wave and
 * hook commands are started from.
 * @module
 */

import {
  fillTemplate,
  stepEnv,
  type StepPhase,
  type TemplateValues,
} from "../exec/fill_template.ts";
import { runStep, type StepResult } from "../exec/run_step.ts";
import type { Run, Wave } from "../spec/types.ts";
import type { RunIo, StepSettings } from "./run_io.ts";

/** One command to run. */
export interface UserStep {
  /** The argv template (`plan`, `apply`, `planWave`, `applyWave` or a hook's `run`). */
  template: readonly string[];
  phase: StepPhase;
  /** What the step console calls a step without a run (a hook's name); default `wave <k>`. */
  label?: string;
  /** The run, for per-run commands; absent for whole-wave commands. */
  run?: Run;
  /** The run's plan file, for per-run commands. */
  planPath?: string;
  /** `{runs}`, `{plans}` and `{op}` of whole-wave commands. */
  values?: TemplateValues;
}

/**
 * Runs a user command of `wave` and waits for it.
 * @param step The command and the run it is for.
 * @param wave The wave (`{wave}`, `{k}`, `CHANT_WAVE_NAME`, `CHANT_WAVE_K`).
 * @param settings Heartbeat and timeout.
 * @param io The edges.
 * @returns How the step ended; never rejects for the command's own failures.
 */
export function runUserStep(
  step: UserStep,
  wave: Wave,
  settings: StepSettings,
  io: RunIo,
): Promise<StepResult> {
  const { run, planPath, phase } = step;
  const perRun = run === undefined
    ? {}
    : { target: run.target, op: run.op, plan: planPath };
  return runStep({
    argv: fillTemplate(step.template, {
      ...step.values,
      ...perRun,
      wave: wave.name,
      k: wave.k,
    }),
    cwd: io.cwd,
    env: stepEnv(io.env, { name: wave.name, k: wave.k, phase, ...perRun }),
    phase,
    target: run?.target ?? step.label ?? `wave ${wave.k}`,
    heartbeatMs: settings.heartbeatMs,
    timeoutMs: settings.timeoutMs,
    interrupts: io.interrupts,
    clock: io.clock,
    writer: io.stderr,
    spawner: io.spawner,
  });
}

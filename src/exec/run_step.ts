/**
 * Runs one plan or apply command as a step (SPEC.md §7): streams its stdout and
 * stderr line by line through the step console as they arrive, prints heartbeats
 * while it is quiet, enforces its timeout, keeps the tail of its output, and
 * reports the outcome as one value. It does not fill templates or decide what a
 * failure means for the wave.
 * Its two timers: a heartbeat after each quiet `heartbeatMs`, re-armed rather
 * than set per chunk of output, and the timeout that stops it.
 * @module
 */

import { type Clock, realClock, type TimerHandle } from "../clock.ts";
import { type LineSink, LineSplitter } from "../console/line_splitter.ts";
import { DEFAULT_TAIL_LINES, LineTail } from "../console/line_tail.ts";
import { type StepConsole, stepConsole } from "../console/step_console.ts";
import { fdWriter, type Writer } from "../console/writer.ts";
import type { StepPhase } from "./fill_template.ts";
import { formatDuration } from "../spec/duration.ts";
import type { Interrupts } from "./interrupts.ts";
import {
  DEFAULT_KILL_GRACE_MS,
  nodeSpawner,
  type RunningStep,
  type SpawnedProcess,
  type Spawner,
  SpawnError,
  stopStep,
} from "./spawner.ts";

/** What to run, and how. */
export interface RunStepOptions {
  /** The filled argv (see `fillTemplate`); never run through a shell. */
  argv: readonly string[];
  /** The working directory. @default {the current directory} */
  cwd?: string;
  /** The complete environment (see `stepEnv`). @default {the parent's environment} */
  env?: Record<string, string>;
  /** Printed as `[<phase>]`. */
  phase: StepPhase;
  /** The run's target, printed after the phase and named in the failure. */
  target: string;
  /** Print a heartbeat after this many quiet milliseconds, and again every as many; 0 = off. @default {60000} */
  heartbeatMs?: number;
  /** Stop the step after this many milliseconds; 0 = no timeout. @default {0} */
  timeoutMs?: number;
  /** Milliseconds between TERM and KILL when the step times out. @default {5000} */
  killGraceMs?: number;
  /** The registry that stops the step on SIGINT/SIGTERM. @default {none} */
  interrupts?: Interrupts;
  /** @default {realClock} */
  clock?: Clock;
  /** Where the step console writes. @default {fdWriter(2)} (stderr) */
  writer?: Writer;
  /** @default {nodeSpawner()} */
  spawner?: Spawner;
  /**
   * Takes the step's stdout as bytes instead of printing it (output too large or
   * too secret for the console, such as `tofu show -json`); stderr is still
   * printed. It must not reject. @default {none: stdout is printed}
   */
  captureStdout?: (chunk: Uint8Array) => Promise<void>;
}

/** How a step ended. */
export interface StepResult {
  /** The exit code; 128 + n after signal n; 127 (not found) or 126 when it could not start. */
  exitCode: number;
  /** True when it exited 0, in time, and was not interrupted. */
  ok: boolean;
  /** True when the timeout stopped it. */
  timedOut: boolean;
  /** True when an interrupt stopped it (or kept it from starting). */
  interrupted: boolean;
  /** One line when not ok: `plan of "prod-eu" exited 1`, `… timed out after 5s`. */
  failure?: string;
  /** The last lines it printed (stdout and stderr, in arrival order), oldest first. */
  tail: string[];
  /** How long it ran, in milliseconds. */
  durationMs: number;
}

/**
 * Runs one step and waits for it to finish: its process exited and both its
 * output streams closed. Never rejects for the step's own failures.
 *
 * Contracts:
 * - Every output line is printed as `[<phase>] <target> | <line>` as it arrives
 *   (stdout's go to `captureStdout` instead, when given), with its control
 *   characters made visible and invalid UTF-8 replaced; the lines of one read
 *   are written with one writer call (`writeBytes` when the writer has it; a
 *   very large read in a few, each ending with a whole line), so lines of
 *   parallel steps never mix within a line. A last line without a newline is
 *   printed when the stream ends; a line over 64 KiB is printed in pieces.
 * - Heartbeat: after `heartbeatMs` without output, prints
 *   `[<phase>] <target>: still running after <n>s` (n = seconds since the start),
 *   then again after every further `heartbeatMs` of quiet.
 * - Timeout: after `timeoutMs`, TERM to the step's process group, KILL after
 *   `killGraceMs`; the failure says `timed out after <dur>`.
 * - A command that cannot start fails the step (`could not start "<cmd>": not
 *   found`), with no stack trace and no rejection.
 * - With `interrupts`, the step is tracked there while it runs, and is not
 *   started at all once an interrupt arrived.
 * @param options What to run.
 * @returns The outcome.
 * @throws {Error} Only for bugs (e.g. a spawner that fails with something other
 * than a `SpawnError`).
 */
export async function runStep(options: RunStepOptions): Promise<StepResult> {
  const clock = options.clock ?? realClock;
  const label = `${options.phase} of "${options.target}"`;
  const startedAt = clock.now();
  const done = (fields: Omit<StepResult, "durationMs" | "tail">) => ({
    ...fields,
    tail: [],
    durationMs: clock.now() - startedAt,
  });
  if (options.interrupts?.signal.aborted) {
    return done({ ...NOT_RUN, failure: `${label} was interrupted` });
  }
  let child: SpawnedProcess;
  try {
    child = await (options.spawner ?? nodeSpawner()).spawn({
      argv: options.argv,
      cwd: options.cwd,
      env: options.env,
    });
  } catch (error) {
    if (!(error instanceof SpawnError)) throw error;
    const exitCode = error.code === "ENOENT" ? 127 : 126;
    return done({ ...NOT_RUN, exitCode, failure: `${label} ${error.message}` });
  }
  return await watchStep(child, options, clock, label, startedAt);
}

const NOT_RUN = {
  exitCode: 1,
  ok: false,
  timedOut: false,
  interrupted: false,
} as const;

/** Streams, times and waits for a started step. */
async function watchStep(
  child: SpawnedProcess,
  options: RunStepOptions,
  clock: Clock,
  label: string,
  startedAt: number,
): Promise<StepResult> {
  const writer = options.writer ?? fdWriter(2);
  const out = stepConsole(writer, options.phase, options.target);
  const tail = new LineTail(DEFAULT_TAIL_LINES);
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const timers = startTimers(options, clock, startedAt, out, () => {
    void stopStep(running, clock, graceMs);
  });
  const lines: StepLines = {
    sink: (bytes, start, end, plain) => {
      out.line(bytes, start, end, plain);
      tail.note(bytes, start, end);
    },
    done: () => {
      tail.settle();
      if (out.flush()) timers.heard();
    },
  };
  const finished = Promise.all([
    options.captureStdout
      ? pumpBytes(child.stdout(), options.captureStdout)
      : pumpLines(child.stdout(), lines),
    pumpLines(child.stderr(), lines),
    child.waitExitCode(),
  ]);
  const running: RunningStep = {
    kill: (signal) => child.kill(signal),
    finished,
  };
  const untrack = options.interrupts?.track(running);
  let exitCode: number;
  try {
    [, , exitCode] = await finished;
  } finally {
    timers.stop();
    untrack?.();
  }
  const timedOut = timers.timedOut();
  const interrupted = options.interrupts?.signal.aborted ?? false;
  const ok = exitCode === 0 && !timedOut && !interrupted;
  return {
    exitCode,
    ok,
    timedOut,
    interrupted,
    failure: ok
      ? undefined
      : failureOf(label, exitCode, timedOut, interrupted, options),
    tail: tail.lines(),
    durationMs: clock.now() - startedAt,
  };
}

function failureOf(
  label: string,
  exitCode: number,
  timedOut: boolean,
  interrupted: boolean,
  options: RunStepOptions,
): string {
  if (timedOut) {
    return `${label} timed out after ${formatDuration(options.timeoutMs ?? 0)}`;
  }
  if (interrupted) return `${label} was interrupted`;
  return `${label} exited ${exitCode}`;
}

/** Where a stream's lines go: each to `sink`, then `done` after each chunk. */
interface StepLines {
  sink: LineSink;
  done(): void;
}

/** Reads a byte stream to its end, handing over the lines of each chunk. */
async function pumpLines(
  stream: AsyncIterable<Uint8Array>,
  lines: StepLines,
): Promise<void> {
  const splitter = new LineSplitter();
  for await (const chunk of stream) {
    splitter.push(chunk, lines.sink);
    lines.done();
  }
  splitter.flush(lines.sink);
  lines.done();
}

/** Reads a byte stream to its end, handing over each chunk in order. */
async function pumpBytes(
  stream: AsyncIterable<Uint8Array>,
  onChunk: (chunk: Uint8Array) => Promise<void>,
): Promise<void> {
  for await (const chunk of stream) await onChunk(chunk);
}

/** The heartbeat and timeout timers of one step. */
export interface StepTimers {
  /** Notes that the step printed something (resets the heartbeat). */
  heard(): void;
  /** Cancels both timers. */
  stop(): void;
  /** Whether the timeout fired. */
  timedOut(): boolean;
}

/** Starts the heartbeat and the timeout; `onTimeout` stops the step. */
function startTimers(
  options: { heartbeatMs?: number; timeoutMs?: number },
  clock: Clock,
  startedAt: number,
  out: StepConsole,
  onTimeout: () => void,
): StepTimers {
  const heartbeatMs = options.heartbeatMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 0;
  let lastHeard = startedAt;
  let heartbeat: TimerHandle;
  let timeout: TimerHandle;
  let timedOut = false;
  let stopped = false;
  // One pending heartbeat timer, re-armed for the rest of the quiet period, so
  // output costs a clock read instead of a timer per chunk.
  const beat = (delay: number) => {
    heartbeat = clock.setTimeout(() => {
      if (stopped) return;
      const now = clock.now();
      const quiet = now - lastHeard;
      if (quiet < heartbeatMs) return beat(heartbeatMs - quiet);
      out.heartbeat(now - startedAt);
      lastHeard = now;
      beat(heartbeatMs);
    }, delay);
  };
  if (heartbeatMs > 0) beat(heartbeatMs);
  if (timeoutMs > 0) {
    timeout = clock.setTimeout(() => {
      if (stopped) return;
      timedOut = true;
      onTimeout();
    }, timeoutMs);
  }
  return {
    heard: () => {
      lastHeard = clock.now();
    },
    stop: () => {
      stopped = true;
      if (heartbeat !== undefined) clock.clearTimeout(heartbeat);
      if (timeout !== undefined) clock.clearTimeout(timeout);
    },
    timedOut: () => timedOut,
  };
}

/**
 * The narrow spawn seam: start one command (never through a shell) in its own
 * process group, read its stdout and stderr as byte streams, signal the whole
 * group, and wait for its exit code. Prefixing, heartbeats, tails and timeouts
 * are built on top (`run_step.ts`). The real implementation uses
 * `node:child_process`, so it runs on Deno, Node 20+ and bun.
 * The one way chant-wave stops a running step is here too: TERM to its process
 * group, a grace period, then KILL (a step's timeout and interrupts use it).
 * @module
 */

import { spawn } from "node:child_process";
import { type Readable, setDefaultHighWaterMark } from "node:stream";
import { constants } from "node:os";
import process from "node:process";
import { type CollectionPacer, paceCollections } from "./pace_collections.ts";
import type { Clock } from "../clock.ts";

/** The signals chant-wave sends to a step. */
export type StopSignal = "SIGTERM" | "SIGKILL" | "SIGINT";

/** What to start. */
export interface SpawnOptions {
  /** The command and its arguments; `argv[0]` is looked up on `PATH`. Never a shell line. */
  argv: readonly string[];
  /** The working directory. @default {the current directory} */
  cwd?: string;
  /** The complete environment of the command. @default {the parent's environment} */
  env?: Record<string, string>;
}

/** A started command. */
export interface SpawnedProcess {
  /** The process id, which is also its process group id. */
  readonly pid: number;
  /** The command's stdout, as chunks of bytes; read it, or the command may block. */
  stdout(): AsyncIterable<Uint8Array>;
  /** The command's stderr, as chunks of bytes; read it, or the command may block. */
  stderr(): AsyncIterable<Uint8Array>;
  /**
   * Sends `signal` to the command's whole process group (so its children too).
   * A group that is already gone is ignored.
   * @param signal The signal.
   */
  kill(signal: StopSignal): void;
  /**
   * Waits for the command to exit.
   * @returns Its exit code; a death by signal n is 128 + n (SIGKILL → 137).
   */
  waitExitCode(): Promise<number>;
}

/** Starts commands. Tests pass fakes; the CLI passes {@linkcode nodeSpawner}. */
export interface Spawner {
  /**
   * Starts a command in a new process group, stdin closed, stdout and stderr piped.
   * @param options What to start.
   * @returns The running command, once it has started.
   * @throws {SpawnError} (as a rejection) When the command cannot start.
   */
  spawn(options: SpawnOptions): Promise<SpawnedProcess>;
}

/**
 * A command that could not start: not found, not executable, a bad directory.
 * Its message is one line naming the command, e.g.
 * `could not start "nosuchcmd": not found`; the caller adds the step and target.
 */
export class SpawnError extends Error {
  /** The command as given (`argv[0]`). */
  readonly command: string;
  /** Why, in words: `not found`, `permission denied`, or the system's message. */
  readonly reason: string;
  /** The system error code, e.g. `ENOENT`, when there is one. */
  readonly code: string | undefined;

  /**
   * @param command The command as given.
   * @param reason Why it could not start.
   * @param code The system error code.
   */
  constructor(command: string, reason: string, code?: string) {
    super(`could not start "${command}": ${reason}`);
    this.name = "SpawnError";
    this.command = command;
    this.reason = reason;
    this.code = code;
  }
}

const REASONS: Record<string, string> = {
  ENOENT: "not found",
  EACCES: "permission denied",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  ENOEXEC: "not an executable format",
};

/**
 * Turns a start failure into a {@linkcode SpawnError}.
 * @param command The command as given.
 * @param error What `spawn` threw or emitted.
 * @returns The error to report.
 */
export function toSpawnError(command: string, error: unknown): SpawnError {
  const code = (error as { code?: unknown })?.code;
  const known = typeof code === "string" ? REASONS[code] : undefined;
  const reason = known ??
    (error instanceof Error ? error.message : String(error));
  return new SpawnError(
    command,
    reason,
    typeof code === "string" ? code : undefined,
  );
}

/**
 * Maps a Node exit to one exit code.
 * @param code The exit code, or `null` when a signal ended the process.
 * @param signal The signal's name, or `null`.
 * @returns `code`, else 128 + the signal's number, else 1.
 */
export function exitCodeOf(
  code: number | null,
  signal: string | null,
): number {
  if (code !== null) return code;
  const number = signal
    ? (constants.signals as Record<string, number | undefined>)[signal]
    : undefined;
  return number === undefined ? 1 : 128 + number;
}

/** Options of {@linkcode nodeSpawner}. */
export interface NodeSpawnerOptions {
  /**
   * Told of every command started and every chunk of output read, to collect
   * garbage between them (see `pace_collections.ts`).
   * @default {none: no collections}
   */
  pacer?: CollectionPacer;
}

/**
 * The real spawner, on `node:child_process.spawn` with `detached: true` (each
 * command leads its own process group and session, so a terminal's Ctrl-C reaches
 * chant-wave only, which then stops the groups itself) and
 * `stdio: ["ignore", "pipe", "pipe"]`. `shell` is never used.
 * @param options The pacer of garbage collections between commands.
 * @returns The spawner.
 */
export function nodeSpawner(options: NodeSpawnerOptions = {}): Spawner {
  const pacer = options.pacer ?? paceCollections({});
  return {
    spawn(spawnOptions) {
      pacer.beforeStep();
      return spawnDetached(spawnOptions, pacer);
    },
  };
}

function spawnDetached(
  options: SpawnOptions,
  pacer: CollectionPacer,
): Promise<SpawnedProcess> {
  const command = options.argv[0] ?? "";
  if (command === "") {
    return Promise.reject(new SpawnError(command, "the command is empty"));
  }
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, options.argv.slice(1), {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        shell: false,
        stdio: ["ignore", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      reject(toSpawnError(command, error));
      return;
    }
    const exited = new Promise<number>((done) => {
      child.once("exit", (code, signal) => done(exitCodeOf(code, signal)));
    });
    // `on`, not `once`: a later error event must not go unhandled (reject is then a no-op).
    child.on("error", (error) => reject(toSpawnError(command, error)));
    child.once("spawn", () => {
      const pid = child.pid as number;
      resolve({
        pid,
        stdout: () => chunksOf(child.stdout!, pacer),
        stderr: () => chunksOf(child.stderr!, pacer),
        kill: (signal) => killGroup(pid, signal),
        waitExitCode: () => exited,
      });
    });
  });
}

/** The default high-water mark set by {@linkcode useSmallPipeBuffers}, in bytes. */
const SMALL_HIGH_WATER_MARK = 1024;

/**
 * Lowers the runtime's default high-water mark of byte streams to 1 KiB, so
 * that each child pipe starts with a small buffer: bun allocates a zeroed
 * buffer of that size (64 KiB by default) for every pipe it starts reading,
 * two per step, even for a step that prints nothing, which made up about a
 * tenth of a wave's own CPU time and most of its peak memory. Reads of a busy
 * pipe still come in large chunks. Call it once at start-up (`cli.ts`): it
 * changes the default of every stream created afterwards, and only how much a
 * stream buffers ahead, never what it delivers.
 */
export function useSmallPipeBuffers(): void {
  setDefaultHighWaterMark(false, SMALL_HIGH_WATER_MARK);
}

/** Chunks queued before the stream is paused, and the level it resumes at. */
const HIGH_WATER = 8;
const LOW_WATER = 2;

/**
 * Reads a stream as an async iterable of chunks through `data` events, with a
 * small queue that pauses the stream when it fills, so memory stays bounded.
 * Bun's built-in async iterator of child streams is several times slower than
 * its `data` events; this keeps one fast path for every runtime. Each chunk's
 * size goes to the pacer.
 */
function chunksOf(
  stream: Readable,
  pacer: CollectionPacer,
): AsyncIterable<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  stream.on("data", (chunk: Uint8Array) => {
    pacer.read(chunk.length);
    queue.push(chunk);
    if (queue.length >= HIGH_WATER) stream.pause();
    notify();
  });
  const end = () => {
    ended = true;
    notify();
  };
  stream.once("end", end);
  stream.once("close", end);
  stream.on("error", (error) => {
    failure ??= { error };
    notify();
  });
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    while (queue.length === 0 && !ended && failure === undefined) {
      await new Promise<void>((resolve) => wake = resolve);
    }
    const chunk = queue.shift();
    if (chunk !== undefined) {
      if (queue.length <= LOW_WATER && stream.isPaused()) stream.resume();
      return { value: chunk, done: false };
    }
    if (failure !== undefined) throw failure.error;
    return { value: undefined, done: true };
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

/**
 * Signals a process group, ignoring a group that is already gone (`ESRCH`, or
 * `EPERM`, which some systems report for a group of zombies).
 */
function killGroup(pid: number, signal: StopSignal): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}

/** How long a stopped step gets between TERM and KILL by default. */
export const DEFAULT_KILL_GRACE_MS = 5_000;

/** A step that is running, as the stopping code sees it. */
export interface RunningStep {
  /** Signals the step's whole process group; a group already gone is ignored. */
  kill(signal: StopSignal): void;
  /** Settles once the step's process has exited and its output has closed. */
  readonly finished: Promise<unknown>;
}

/**
 * Stops a step: sends SIGTERM to its process group, waits until it has finished
 * or `graceMs` has passed, then sends SIGKILL to the group (which also ends any
 * process of the group still running once the step's own process is gone, such
 * as a grandchild that ignores TERM), and waits for the step to finish, at most
 * another `graceMs`.
 * @param step The step.
 * @param clock The clock that times the grace period.
 * @param graceMs Milliseconds between TERM and KILL.
 * @default {5000} for `graceMs`
 * @returns Whether the step finished (false when it outlived the last wait, e.g.
 * because a process outside the group keeps its output open).
 */
export async function stopStep(
  step: RunningStep,
  clock: Clock,
  graceMs: number = DEFAULT_KILL_GRACE_MS,
): Promise<boolean> {
  const finished = step.finished.then(() => true, () => true);
  step.kill("SIGTERM");
  await within(finished, clock, graceMs);
  step.kill("SIGKILL");
  return await within(finished, clock, graceMs);
}

/** Resolves with `promise`'s value, or `false` after `ms`. */
function within(
  promise: Promise<boolean>,
  clock: Clock,
  ms: number,
): Promise<boolean> {
  let handle: unknown;
  const timeout = new Promise<boolean>((resolve) => {
    handle = clock.setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise, timeout]).finally(() =>
    clock.clearTimeout(handle)
  );
}

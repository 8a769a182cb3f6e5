/**
 * The narrow spawn seam: start one command (never through a shell) in its own
 * process group, read its stdout and stderr as byte streams, signal the whole
 * group, and wait for its exit code. Prefixing, heartbeats, tails and timeouts
 * are built on top (`run_step.ts`). The real implementation starts processes
 * through `src/proc/` (`Bun.spawn` under bun, `node:child_process` on Deno and
 * Node 20+).
 * The one way chant-wave stops a running step is here too: TERM to its process
 * group, a grace period, then KILL (a step's timeout and interrupts use it).
 * @module
 */

import {
  exitCodeOf,
  type ProcessSignal,
  type SpawnRuntime,
  spawnRuntime,
  type StartedProcess,
  startProcess,
} from "../proc/start_process.ts";
import { type CollectionPacer, paceCollections } from "./pace_collections.ts";
import type { JitPolicy } from "../proc/jit_policy.ts";
import type { Clock } from "../clock.ts";

/** The signals chant-wave sends to a step. */
export type StopSignal = ProcessSignal;

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

/** Options of {@linkcode nodeSpawner}. */
export interface NodeSpawnerOptions {
  /**
   * Told of every command started and every chunk of output read, to collect
   * garbage between them (see `pace_collections.ts`).
   * @default {none: no collections}
   */
  pacer?: CollectionPacer;
  /**
   * Told of every command started and every chunk of output read, to give
   * the runtime its normal JIT policy back once the work is long (see
   * `src/proc/jit_policy.ts`).
   * @default {none}
   */
  jit?: JitPolicy;
}

/**
 * The real spawner, on `startProcess` (`Bun.spawn` under bun, else
 * `node:child_process.spawn`), detached (each command leads its own process
 * group and session, so a terminal's Ctrl-C reaches chant-wave only, which
 * then stops the groups itself), stdin `/dev/null`, stdout and stderr piped.
 * A shell is never used.
 * @param options The pacer of garbage collections between commands, and
 * the JIT policy.
 * @returns The spawner.
 */
export function nodeSpawner(options: NodeSpawnerOptions = {}): Spawner {
  const pacer = options.pacer ?? paceCollections({});
  const jit = options.jit;
  const told: Told = jit === undefined ? pacer : {
    beforeStep: () => {
      jit.step();
      pacer.beforeStep();
    },
    read: (bytes) => {
      jit.read(bytes);
      pacer.read(bytes);
    },
  };
  return {
    spawn(spawnOptions) {
      told.beforeStep();
      return spawnDetached(spawnOptions, told);
    },
  };
}

/** What the spawner tells of each command started and each chunk read. */
type Told = Pick<CollectionPacer, "beforeStep" | "read">;

async function spawnDetached(
  options: SpawnOptions,
  pacer: Told,
): Promise<SpawnedProcess> {
  const command = options.argv[0] ?? "";
  if (command === "") throw new SpawnError(command, "the command is empty");
  let child: StartedProcess;
  try {
    child = await startProcess({
      command,
      args: options.argv.slice(1),
      cwd: options.cwd,
      env: options.env,
      stdin: "ignore",
      detached: true,
    });
  } catch (error) {
    throw toSpawnError(command, error);
  }
  const exited = child.exited.then(exitCodeOf);
  return {
    pid: child.pid,
    stdout: () => paced(child.stdout, pacer),
    stderr: () => paced(child.stderr, pacer),
    kill: (signal) => child.kill(signal),
    waitExitCode: () => exited,
  };
}

/** Tells the pacer the size of each chunk read. */
async function* paced(
  chunks: AsyncIterable<Uint8Array>,
  pacer: Told,
): AsyncIterable<Uint8Array> {
  for await (const chunk of chunks) {
    pacer.read(chunk.length);
    yield chunk;
  }
}

/** The default high-water mark set by {@linkcode useSmallPipeBuffers}, in bytes. */
const SMALL_HIGH_WATER_MARK = 1024;

/**
 * Lowers the runtime's default high-water mark of byte streams to 1 KiB, so
 * that each child pipe read as a node stream (the `node:child_process` path of
 * `src/proc/`, on Node and Deno) starts with a small buffer rather than 64 KiB,
 * even for a step that prints nothing. Reads of a busy pipe still come in
 * large chunks. Call it once at start-up (`cli.ts`): it changes the default of
 * every stream created afterwards, and only how much a stream buffers ahead,
 * never what it delivers. Under bun, whose `Bun.spawn` pipes are web streams,
 * it does nothing and never loads `node:stream` (a millisecond of every
 * command's start).
 * @param runtime How processes start here.
 */
export async function useSmallPipeBuffers(
  runtime: SpawnRuntime = spawnRuntime(),
): Promise<void> {
  if (runtime === "bun") return;
  const { setDefaultHighWaterMark } = await import("node:stream");
  setDefaultHighWaterMark(false, SMALL_HIGH_WATER_MARK);
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

/**
 * The one place chant-wave starts a process, for git (`src/git/`) and the
 * steps (`src/exec/`) alike: an argv (never a shell), a complete environment,
 * a working directory, stdin `/dev/null` or a pipe, stdout and stderr piped
 * and read as chunks of bytes with backpressure (a stream not read stops its
 * process, never fills memory), optionally its own session and process group,
 * and its exit. Under bun (the shipped binary) it uses `Bun.spawn`, which
 * starts a process for far less CPU than `node:child_process`; elsewhere (Node
 * 20+, Deno), or when asked, `node:child_process.spawn`. Both behave the same
 * (`tests/proc/start_process_test.ts` runs each test on both). What a caller
 * makes of the output and of the exit (errors, exit codes, timeouts) is its
 * own.
 * @module
 */

import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { constants } from "node:os";
import process from "node:process";

/** The signals chant-wave sends. */
export type ProcessSignal = "SIGTERM" | "SIGKILL" | "SIGINT";

/** Which implementation starts processes. */
export type SpawnRuntime = "bun" | "node";

/** What to start. */
export interface StartOptions {
  /** The executable: a name looked up on `env.PATH`, or a path. */
  command: string;
  /** Its arguments. */
  args: readonly string[];
  /** The working directory. @default {the current directory} */
  cwd?: string;
  /** The complete environment. @default {the parent's environment} */
  env?: Record<string, string>;
  /**
   * `ignore`: stdin is `/dev/null`; `pipe`: written through `write` and `end`;
   * `inherit`: chant-wave's own (a terminal's prompt reaches the user).
   */
  stdin: "ignore" | "pipe" | "inherit";
  /**
   * Whether the process leads a new session and process group, so that
   * `kill` reaches its children too and a terminal's Ctrl-C does not.
   */
  detached: boolean;
  /** Which implementation. @default {spawnRuntime()} */
  runtime?: SpawnRuntime;
}

/** How a process ended. */
export interface ProcessExit {
  /** Its exit code; `undefined` when a signal ended it. */
  code: number | undefined;
  /** The signal that ended it (`SIGKILL`), else `undefined`. */
  signal: string | undefined;
}

/** A running process. */
export interface StartedProcess {
  /** The process id (the process group id too, when detached). */
  readonly pid: number;
  /** Its stdout as chunks of bytes, to be read once; read it, or it may block. */
  readonly stdout: AsyncIterable<Uint8Array>;
  /** Its stderr as chunks of bytes, to be read once; read it, or it may block. */
  readonly stderr: AsyncIterable<Uint8Array>;
  /**
   * Writes to its stdin (with `stdin: "pipe"`); a process that has stopped
   * reading is not an error.
   * @param data The bytes, or text as UTF-8.
   */
  write(data: string | Uint8Array): void;
  /** Closes its stdin (with `stdin: "pipe"`). */
  end(): void;
  /**
   * Signals it (its whole group when detached); a process or group already
   * gone is ignored.
   * @param signal The signal.
   */
  kill(signal: ProcessSignal): void;
  /** Settles when it has exited (its output may still be open). */
  readonly exited: Promise<ProcessExit>;
}

/**
 * The implementation this runtime gets by default: `bun` where `Bun.spawn`
 * exists, else `node`.
 * @returns The runtime's name.
 */
export function spawnRuntime(): SpawnRuntime {
  return typeof bunSpawn() === "function" ? "bun" : "node";
}

/**
 * Starts a process.
 * @param options What to start.
 * @returns The process, once it has started.
 * @throws {Error} (as a rejection) The system's error when it cannot start,
 * with its `code` (`ENOENT`, `EACCES`, …).
 */
export function startProcess(options: StartOptions): Promise<StartedProcess> {
  const runtime = options.runtime ?? spawnRuntime();
  if (runtime === "bun") {
    try {
      return Promise.resolve(startWithBun(options));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return startWithNode(options);
}

/**
 * Maps an exit to one exit code.
 * @param exit How the process ended.
 * @returns Its code, else 128 + the signal's number, else 1.
 */
export function exitCodeOf(exit: ProcessExit): number {
  if (exit.code !== undefined) return exit.code;
  const number = exit.signal
    ? (constants.signals as Record<string, number | undefined>)[exit.signal]
    : undefined;
  return number === undefined ? 1 : 128 + number;
}

/**
 * Reads chunks to their end.
 * @param chunks A process's stdout or stderr.
 * @returns Every byte, in one array.
 */
export async function readAll(
  chunks: AsyncIterable<Uint8Array>,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return joinBytes(parts);
}

/**
 * Joins byte arrays.
 * @param parts The arrays, in order.
 * @returns One new array holding them all.
 */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The part of `Bun.spawn`'s answer used here. */
interface BunSubprocess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly stdin?: {
    write(data: string | Uint8Array): unknown;
    flush(): unknown;
    end(): unknown;
  };
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: string): void;
}

type BunSpawn = (
  argv: string[],
  options: Record<string, unknown>,
) => BunSubprocess;

/** `Bun.spawn`, when this runtime has it. */
function bunSpawn(): BunSpawn | undefined {
  const bun = (globalThis as { Bun?: { spawn?: BunSpawn } }).Bun;
  return bun?.spawn?.bind(bun);
}

function startWithBun(options: StartOptions): StartedProcess {
  const start = bunSpawn();
  if (start === undefined) throw new Error("Bun.spawn is not available");
  const child = start([options.command, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin,
    stdout: "pipe",
    stderr: "pipe",
    detached: options.detached,
  });
  const pid = child.pid;
  // A reader taken at once: until a stream has one, bun reads the pipe into
  // memory without bound.
  const stdout = child.stdout.getReader();
  const stderr = child.stderr.getReader();
  const stdin = child.stdin;
  return {
    pid,
    stdout: readerChunks(stdout),
    stderr: readerChunks(stderr),
    write(data) {
      try {
        stdin?.write(data);
        // A rejected flush is a process that stopped reading.
        void Promise.resolve(stdin?.flush()).catch(() => {});
      } catch {
        // The process has stopped reading.
      }
    },
    end() {
      try {
        void Promise.resolve(stdin?.end()).catch(() => {});
      } catch {
        // Already closed.
      }
    },
    kill: (signal) =>
      options.detached
        ? killGroup(pid, signal)
        : ignoreGone(() => child.kill(signal)),
    exited: child.exited.then(() => ({
      code: child.exitCode ?? undefined,
      signal: child.signalCode ?? undefined,
    })),
  };
}

/** The chunks of a stream's reader, as an async iterable read once. */
function readerChunks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<Uint8Array>> {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { value: undefined, done: true };
          if (value.length > 0) return { value, done: false };
        }
      },
    }),
  };
}

function startWithNode(options: StartOptions): Promise<StartedProcess> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.command, [...options.args], {
        cwd: options.cwd,
        env: options.env,
        detached: options.detached,
        shell: false,
        stdio: [options.stdin, "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      reject(error);
      return;
    }
    const exited = new Promise<ProcessExit>((done) => {
      child.once(
        "exit",
        (code, signal) =>
          done({ code: code ?? undefined, signal: signal ?? undefined }),
      );
    });
    // `on`, not `once`: a later error event must not go unhandled (reject is then a no-op).
    child.on("error", reject);
    // The process may exit before reading all of its input; not our error.
    child.stdin?.on("error", () => {});
    child.once("spawn", () => {
      const pid = child.pid as number;
      resolve({
        pid,
        stdout: streamChunks(child.stdout!),
        stderr: streamChunks(child.stderr!),
        write: (data) => void child.stdin?.write(data),
        end: () => void child.stdin?.end(),
        kill: (signal) =>
          options.detached
            ? killGroup(pid, signal)
            : ignoreGone(() => child.kill(signal)),
        exited,
      });
    });
  });
}

/** Chunks queued before the stream is paused, and the level it resumes at. */
const HIGH_WATER = 8;
const LOW_WATER = 2;

/**
 * Reads a stream as an async iterable of chunks through `data` events, with a
 * small queue that pauses the stream when it fills, so memory stays bounded.
 * Bun's built-in async iterator of node streams is several times slower than
 * their `data` events.
 */
function streamChunks(stream: Readable): AsyncIterable<Uint8Array> {
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
function killGroup(pid: number, signal: ProcessSignal): void {
  ignoreGone(() => process.kill(-pid, signal));
}

function ignoreGone(kill: () => void): void {
  try {
    kill();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ESRCH" && code !== "EPERM") throw error;
  }
}

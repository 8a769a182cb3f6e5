/**
 * The one place chant-wave runs git to its end: through `src/proc/` (an argv
 * array, never a shell), an explicit environment, optional stdin, and the whole
 * of stdout and stderr collected. Private to `src/git/`.
 * @module
 */

import {
  readAll,
  type StartedProcess,
  startProcess,
} from "../proc/start_process.ts";
import { GitError } from "./git_error.ts";

/** How to start one git command. */
export interface SpawnGitOptions {
  /** The git executable (a name looked up on `env.PATH`, or a path). */
  gitPath: string;
  /** The working directory. */
  cwd: string;
  /** The complete environment of the child (nothing is inherited). */
  env: Record<string, string>;
  /** Written to git's stdin, which is then closed; without it stdin is `/dev/null`. */
  input?: string | Uint8Array;
  /** Aborting kills git; the command then counts as failed. */
  signal?: AbortSignal;
}

/** What a finished git command left. */
export interface GitOutput {
  /** The exit code; `undefined` when git was killed by a signal. */
  exitCode: number | undefined;
  /** Everything git wrote to stdout. */
  stdout: Uint8Array;
  /** Everything git wrote to stderr, decoded as UTF-8. */
  stderr: string;
}

/**
 * Runs git once and waits for it to end. A non-zero exit is returned, not thrown,
 * so callers can tell expected failures (a missing rev) from real ones.
 * @param args The arguments after `git`.
 * @param options Where and how to run it.
 * @returns The exit code and the collected output.
 * @throws {GitError} When git cannot be started (not installed, missing `cwd`).
 */
export async function spawnGit(
  args: readonly string[],
  options: SpawnGitOptions,
): Promise<GitOutput> {
  let child: StartedProcess;
  try {
    options.signal?.throwIfAborted();
    child = await startProcess({
      command: options.gitPath,
      args,
      cwd: options.cwd,
      env: options.env,
      // Without input, stdin is /dev/null: no pipe to make and close.
      stdin: options.input === undefined ? "ignore" : "pipe",
      detached: false,
    });
  } catch (error) {
    throw new GitError(args, undefined, "", error);
  }
  const abort = () => child.kill("SIGTERM");
  options.signal?.addEventListener("abort", abort, { once: true });
  // Aborted while git was starting: no event comes any more.
  if (options.signal?.aborted) abort();
  try {
    if (options.input !== undefined) {
      child.write(options.input);
      child.end();
    }
    const [exit, stdout, stderr] = await Promise.all([
      child.exited,
      readAll(child.stdout),
      readAll(child.stderr),
    ]).catch((error) => {
      // A pipe that failed to read: git's answer is lost, so git is too.
      child.kill("SIGKILL");
      throw new GitError(args, undefined, "", error);
    });
    const said = decoder.decode(stderr);
    if (options.signal?.aborted) {
      throw new GitError(args, undefined, said, options.signal.reason);
    }
    return { exitCode: exit.code, stdout, stderr: said };
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
}

const decoder = new TextDecoder();

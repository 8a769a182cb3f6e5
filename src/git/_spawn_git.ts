/**
 * The one place chant-wave starts git: `node:child_process.spawn` with an argv
 * array (never a shell), an explicit environment, optional stdin, and the whole of
 * stdout and stderr collected. Private to `src/git/`.
 * @module
 */

import { spawn } from "node:child_process";
import { Buffer } from "node:buffer";
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
export function spawnGit(
  args: readonly string[],
  options: SpawnGitOptions,
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.gitPath, [...args], {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      windowsHide: true,
      // Without input, stdin is /dev/null: no pipe to make and close (a third
      // of what starting git costs a bun process).
      stdio: [
        options.input === undefined ? "ignore" : "pipe",
        "pipe",
        "pipe",
      ] as const,
      signal: options.signal,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let failed = false;
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    // git may exit before reading all of its input; that is not our error.
    child.stdin?.on("error", () => {});
    child.on("error", (error) => {
      if (failed) return;
      failed = true;
      reject(
        new GitError(args, undefined, Buffer.concat(stderr).toString(), error),
      );
    });
    child.on("close", (code) => {
      if (failed) return;
      resolve({
        exitCode: code ?? undefined,
        stdout: new Uint8Array(Buffer.concat(stdout)),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

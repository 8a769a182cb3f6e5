/**
 * The git seam: a small `Git` interface and `createGit`, its implementation on
 * `node:child_process`. Every command runs without a shell, in an explicit
 * environment that ignores the user's global and system configuration (see
 * `git_env.ts`), and a failure keeps git's stderr (`GitError`). It deliberately
 * knows nothing of specs, policies or ledgers.
 * @module
 */

import {
  type Env,
  isolatedGitEnv,
  safeDirectoryEnv,
  userGitEnv,
} from "./git_env.ts";
import { GitError } from "./git_error.ts";
import { type GitOutput, spawnGit } from "./_spawn_git.ts";

export { GitError };

/** Options of one {@linkcode Git.run} / {@linkcode Git.exec} call. */
export interface GitRunOptions {
  /** The working directory git runs in. */
  cwd: string;
  /** Written to git's stdin (e.g. for `hash-object --stdin`, `mktree`). */
  input?: string | Uint8Array;
  /**
   * Extra variables for this command (e.g. `GIT_AUTHOR_NAME`, `GIT_INDEX_FILE`);
   * they cannot undo the configuration isolation.
   */
  env?: Env;
  /** Aborting kills git; the call then fails with a `GitError`. */
  signal?: AbortSignal;
}

/** The result of {@linkcode Git.exec}: a finished command, successful or not. */
export type GitResult = GitOutput;

/**
 * What chant-wave asks of git. Implementations must run git without a shell and
 * without the user's global or system configuration, except for `configGet`.
 */
export interface Git {
  /**
   * Runs `git <args>` and returns its result whatever the exit code.
   * @param args The arguments after `git` (never through a shell).
   * @param options Where to run, stdin, extra variables, abort signal.
   * @throws {GitError} Only when git cannot be started.
   */
  exec(args: readonly string[], options: GitRunOptions): Promise<GitResult>;
  /**
   * Runs `git <args>` and returns its stdout decoded as UTF-8.
   * @param args The arguments after `git`.
   * @param options Where to run, stdin, extra variables, abort signal.
   * @throws {GitError} When git cannot be started or exits non-zero.
   */
  run(args: readonly string[], options: GitRunOptions): Promise<string>;
  /**
   * Runs `git <args>` and returns its stdout as bytes.
   * @param args The arguments after `git`.
   * @param options Where to run, stdin, extra variables, abort signal.
   * @throws {GitError} When git cannot be started or exits non-zero.
   */
  runBytes(
    args: readonly string[],
    options: GitRunOptions,
  ): Promise<Uint8Array>;
  /**
   * The top level of the work tree that contains `cwd`, as git prints it.
   * @param cwd Any directory.
   * @returns `undefined` when `cwd` is not inside a work tree (not a repository,
   * or a bare one).
   * @throws {GitError} On any other failure.
   */
  topLevel(cwd: string): Promise<string | undefined>;
  /**
   * Resolves `rev` to the full sha of a commit, with
   * `rev-parse --verify --quiet <rev>^{commit}`.
   * @param rev Any rev (`HEAD^1`, a branch, a sha).
   * @param cwd A directory inside the repository.
   * @returns `undefined` when the repository has no such commit (or `rev` starts
   * with `-`, which is never a rev).
   * @throws {GitError} When git fails for another reason.
   */
  resolveCommit(rev: string, cwd: string): Promise<string | undefined>;
  /**
   * Reads one setting with `git config --get <key>` as the USER's git sees it.
   * The one exception to the isolation: it reads global and system configuration
   * (it exists for the approver default, `user.email`, §5.3). Never use it for
   * anything that decides what chant-wave does.
   * @param key The setting, e.g. `user.email`.
   * @param cwd Where to run (a repository's own config is read too).
   * @returns The value, or `undefined` when it is not set.
   * @throws {GitError} When git fails for another reason (e.g. invalid key).
   */
  configGet(key: string, cwd: string): Promise<string | undefined>;
}

/** Options of {@linkcode createGit}. */
export interface CreateGitOptions {
  /** The caller's environment (the CLI passes `process.env`); only the variables
   * of `PASSED_ENV` reach git. */
  env: Env;
  /**
   * The git executable.
   * @default {"git"}
   */
  gitPath?: string;
}

const decoder = new TextDecoder();

/** What git says when it refuses a repository owned by another user. */
const DUBIOUS_OWNERSHIP = /detected dubious ownership/;

function notInWorkTree(stderr: string): boolean {
  return /not a git repository|must be run in a work tree/.test(stderr);
}

/**
 * Creates the real {@linkcode Git}, running the `git` executable.
 * @param options The environment to take `PATH`, `HOME` and the like from.
 * @returns The git seam.
 * @example
 * ```ts
 * const git = createGit({ env: process.env });
 * const sha = await git.resolveCommit("HEAD^1", process.cwd());
 * ```
 */
export function createGit(options: CreateGitOptions): Git {
  const gitPath = options.gitPath ?? "git";
  // The user's safe.directory entries, read only once git refused a checkout
  // (no extra process otherwise); git refuses before doing anything, so the
  // command is simply run again with them.
  let trusted: Record<string, string> | undefined;
  let reading: Promise<Record<string, string>> | undefined;
  const spawn = (args: readonly string[], o: GitRunOptions) =>
    spawnGit(args, {
      gitPath,
      cwd: o.cwd,
      env: isolatedGitEnv(options.env, { ...o.env, ...trusted }),
      input: o.input,
      signal: o.signal,
    });
  const exec = async (args: readonly string[], o: GitRunOptions) => {
    const out = await spawn(args, o);
    if (trusted !== undefined || !DUBIOUS_OWNERSHIP.test(out.stderr)) {
      return out;
    }
    reading ??= readSafeDirectories(gitPath, options.env).then(
      safeDirectoryEnv,
    );
    trusted = await reading;
    return Object.keys(trusted).length === 0 ? out : await spawn(args, o);
  };
  const runBytes = async (args: readonly string[], o: GitRunOptions) => {
    const out = await exec(args, o);
    if (out.exitCode !== 0) throw new GitError(args, out.exitCode, out.stderr);
    return out.stdout;
  };
  const run = async (args: readonly string[], o: GitRunOptions) =>
    decoder.decode(await runBytes(args, o));
  // Per process: a work tree's top level does not move while chant-wave runs.
  const topLevels = new Map<string, string>();

  return {
    exec,
    run,
    runBytes,
    async topLevel(cwd) {
      const known = topLevels.get(cwd);
      if (known !== undefined) return known;
      const args = ["rev-parse", "--show-toplevel"];
      const out = await exec(args, { cwd });
      if (out.exitCode === 0) {
        const top = firstLine(out.stdout);
        topLevels.set(cwd, top);
        return top;
      }
      if (notInWorkTree(out.stderr)) return undefined;
      throw new GitError(args, out.exitCode, out.stderr);
    },
    async resolveCommit(rev, cwd) {
      if (rev === "" || rev.startsWith("-")) return undefined;
      const args = ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`];
      const out = await exec(args, { cwd });
      if (out.exitCode === 0) return firstLine(out.stdout);
      // exit 1: no such object, or not a commit ("expected commit type").
      if (out.exitCode === 1) return undefined;
      throw new GitError(args, out.exitCode, out.stderr);
    },
    configGet: (key, cwd) => readUserConfig(gitPath, options.env, key, cwd),
  };
}

/** `git config --get <key>` in the user's own environment (see `Git.configGet`). */
async function readUserConfig(
  gitPath: string,
  env: Env,
  key: string,
  cwd: string,
): Promise<string | undefined> {
  const args = ["config", "--get", key];
  const out = await spawnGit(args, { gitPath, cwd, env: userGitEnv(env) });
  if (out.exitCode === 0) return firstLine(out.stdout);
  // exit 1 and silence: not set; exit 1 with a message: an invalid key.
  if (out.exitCode === 1 && out.stderr.trim() === "") return undefined;
  throw new GitError(args, out.exitCode, out.stderr);
}

/**
 * The user's `safe.directory` values (global and system configuration), read at
 * most once per `Git`, when git first refuses a checkout; none when git cannot
 * tell.
 */
async function readSafeDirectories(
  gitPath: string,
  env: Env,
): Promise<string[]> {
  const args = ["config", "--get-all", "safe.directory"];
  const out = await spawnGit(args, { gitPath, cwd: "/", env: userGitEnv(env) })
    .catch(() => undefined);
  if (out?.exitCode !== 0) return [];
  return decoder.decode(out.stdout).split("\n").filter((line) => line !== "");
}

function firstLine(stdout: Uint8Array): string {
  return decoder.decode(stdout).split("\n")[0];
}

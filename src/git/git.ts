/**
 * The git seam: a small `Git` interface and `createGit`, its implementation,
 * which starts git through `src/proc/`. Every command runs without a shell, in an explicit
 * environment that ignores the user's global and system configuration (see
 * `git_env.ts`), and a failure keeps git's stderr (`GitError`). It deliberately
 * knows nothing of specs, policies or ledgers.
 * @module
 */

import {
  type Env,
  isolatedGitEnv,
  placeFinder,
  readSafeDirectories,
  readUserConfig,
  safeDirectoryEnv,
} from "./git_env.ts";
import { GitError } from "./git_error.ts";
import { type GitOutput, spawnGit } from "./_spawn_git.ts";
import { gitOnPath } from "./git_path.ts";
import { refuseLinkedWorkingFolder } from "./working_folder.ts";
import { checkoutOf, programOnPath, trustedPath } from "../fs/program_path.ts";
import { delimiter, dirname } from "node:path";
import {
  type CatFileKind,
  catFilePool,
  startCatFile,
} from "./_cat_file_server.ts";

export { GitError };
export type { CatFileKind };

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
  /**
   * The answer depends only on the commits `args` name by full sha (a walk of
   * their history): {@linkcode Git.run} keeps it and answers the same call
   * again without a process (`readBase` walks the same chain twice when `run`
   * reads its ledger choice at base first). Not with `input` or `env`.
   */
  memo?: boolean;
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
   * The path from the top level to `cwd`, `/`-terminated (empty at the top),
   * as `rev-parse --show-prefix` prints it; read with the top level.
   * @param cwd A directory inside a work tree.
   * @throws {GitError} When `cwd` is not inside a work tree, or git fails.
   */
  prefix(cwd: string): Promise<string>;
  /**
   * Resolves `rev` to the full sha of a commit, as `cat-file --batch-check`
   * answers `<rev>^{commit}` (what `rev-parse --verify` resolves).
   * @param rev Any rev (`HEAD^1`, a branch, a sha).
   * @param cwd A directory inside the repository.
   * @returns `undefined` when the repository has no such commit (or `rev` starts
   * with `-` or holds a newline, which no rev does).
   * @throws {GitError} When git fails for another reason.
   */
  resolveCommit(rev: string, cwd: string): Promise<string | undefined>;
  /**
   * The answer of `git cat-file --batch` (or `--batch-check`) to `names`, one
   * per line, exactly as a one-off process prints it. With
   * {@linkcode CreateGitOptions.longLived} one `cat-file --batch-command`
   * process per directory answers every call of both kinds.
   * @param kind `batch` (headers and contents) or `batch-check` (headers).
   * @param names Object names (`<rev>:<path>`, ids, refs), none holding a newline.
   * @param cwd A directory inside the repository.
   * @returns The bytes git printed.
   * @throws {GitError} When git fails.
   */
  catFile(
    kind: CatFileKind,
    names: readonly string[],
    cwd: string,
  ): Promise<Uint8Array>;
  /**
   * Ends the long-lived `cat-file` processes and starts no more: every later
   * {@linkcode Git.catFile} runs a process of its own. Called before the
   * change's own code runs, which could write into a waiting process's pipes.
   * @returns When every such process has ended.
   */
  endLongLived(): Promise<void>;
  /**
   * Whether {@linkcode Git.endLongLived} was called: a command of the change
   * may have run since, and edited the clone.
   */
  commandsRan(): boolean;
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
   * @default {the first `git` on the absolute directories of `env.PATH`, found once}
   */
  gitPath?: string;
  /**
   * Where chant-wave runs: the directories of `PATH` inside its checkout (the
   * change's files) are left out, for finding git and for every program git
   * starts (`ssh`, credential helpers).
   * @default {none: every absolute directory of `PATH`}
   */
  cwd?: string;
  /**
   * Keep the `cat-file --batch-command` process {@linkcode Git.catFile}
   * starts in a directory for the life of this process (until
   * {@linkcode Git.endLongLived}), instead of one per call. For a program that ends with `process.exit` (the CLI): the processes
   * end when their stdin closes.
   * @default {false}
   */
  longLived?: boolean;
}

const decoder = new TextDecoder();
const FULL_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** What git says when it refuses a repository owned by another user. */
const DUBIOUS_OWNERSHIP = /detected dubious ownership/;

/**
 * The environment git runs in from a checkout: `PATH` cut to its trusted
 * directories, and `ssh` found there once, now. git is told its path
 * (`GIT_SSH`) unless the caller chose one (`GIT_SSH`, `GIT_SSH_COMMAND`; a
 * `core.sshCommand` of the clone's settings still wins), and its directory
 * comes first on git's `PATH`, so a command that names `ssh` by name (a
 * pipeline's `GIT_SSH_COMMAND="ssh -i key"`, a `core.sshCommand`) finds the
 * same one: an `ssh` a command of the change writes mid-job into a directory
 * that comes first on the job's `PATH` (`~/.local/bin`) never carries the
 * ledger's pushes.
 */
function placedEnv(
  env: Env,
  checkout: string,
): { env: Env; trustedPath: string } {
  const trusted = trustedPath(env.PATH, checkout);
  const ssh = programOnPath("ssh", env.PATH, checkout);
  const placed: Record<string, string | undefined> = {
    ...env,
    PATH: (ssh === undefined ? trusted : [dirname(ssh), ...trusted])
      .join(delimiter),
  };
  if (
    ssh !== undefined && env.GIT_SSH === undefined &&
    env.GIT_SSH_COMMAND === undefined
  ) {
    placed.GIT_SSH = ssh;
  }
  return { env: placed, trustedPath: trusted.join(delimiter) };
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
  const placed = options.cwd === undefined
    ? undefined
    : placedEnv(options.env, checkoutOf(options.cwd));
  const env = placed?.env ?? options.env;
  // git itself is found on the trusted PATH as it was given, before ssh's
  // directory is put first.
  const gitPath = options.gitPath ??
    gitOnPath(placed?.trustedPath ?? env.PATH);
  // The user's safe.directory entries, read only once git refused a checkout
  // (no extra process otherwise); git refuses before doing anything, so the
  // command is simply run again with them.
  let trusted: Record<string, string> | undefined;
  let reading: Promise<Record<string, string>> | undefined;
  const spawn = (args: readonly string[], o: GitRunOptions) =>
    spawnGit(args, {
      gitPath,
      cwd: o.cwd,
      env: isolatedGitEnv(env, { ...o.env, ...trusted }),
      input: o.input,
      signal: o.signal,
    });
  const exec = async (args: readonly string[], o: GitRunOptions) => {
    const out = await spawn(args, o);
    if (trusted !== undefined || !DUBIOUS_OWNERSHIP.test(out.stderr)) {
      return out;
    }
    reading ??= readSafeDirectories(gitPath, env).then(
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
  const walks = new Map<string, Promise<string>>();
  const run = (args: readonly string[], o: GitRunOptions) => {
    const once = async () => decoder.decode(await runBytes(args, o));
    if (!o.memo || o.input !== undefined || o.env !== undefined) return once();
    const key = JSON.stringify([o.cwd, args]);
    let answer = walks.get(key);
    if (answer === undefined) {
      answer = once();
      walks.set(key, answer);
      answer.catch(() => walks.delete(key));
    }
    return answer;
  };
  const found = placeFinder(exec);
  // The folder the command starts in is judged once, as the shell named it.
  let started: Promise<void> | undefined;
  const place = async (cwd: string) => {
    if (options.cwd !== undefined) {
      started ??= refuseLinkedWorkingFolder(
        options.env.PWD,
        options.cwd,
        async (top, path) =>
          (await exec(
            ["--literal-pathspecs", "ls-files", "--error-unmatch", "--", path],
            { cwd: top },
          )).exitCode === 0,
      );
      await started;
    }
    return await found(cwd);
  };
  let ended = false;
  const pool = catFilePool(
    options.longLived ?? false,
    (cwd) =>
      startCatFile({
        gitPath,
        cwd,
        env: isolatedGitEnv(env, { ...trusted }),
      }),
  );
  const catFile = async (
    kind: CatFileKind,
    names: readonly string[],
    cwd: string,
  ) => {
    if (names.length === 0) return new Uint8Array(0);
    // A failed server (git refused the directory, an old git) leaves the
    // call to a one-off process, which reports why.
    const answer = await pool.server(cwd)?.ask(kind, names)
      .catch(() => undefined);
    if (answer !== undefined) return answer;
    return await runBytes(["cat-file", `--${kind}`], {
      cwd,
      input: names.join("\n") + "\n",
    });
  };

  return {
    exec,
    run,
    runBytes,
    async topLevel(cwd) {
      return (await place(cwd))?.top;
    },
    async prefix(cwd) {
      const known = await place(cwd);
      if (known !== undefined) return known.prefix;
      const args = ["rev-parse", "--show-prefix"];
      throw new GitError(args, 128, "not in a work tree");
    },
    async resolveCommit(rev, cwd) {
      if (rev === "" || rev.startsWith("-") || rev.includes("\n")) {
        return undefined;
      }
      const line = firstLine(
        await catFile("batch-check", [`${rev}^{commit}`], cwd),
      );
      // `<oid> commit <size>`, or `<name> missing` (no such object, or not a commit).
      const [oid, type] = line.split(" ");
      return type === "commit" && FULL_OID.test(oid) ? oid : undefined;
    },
    catFile,
    endLongLived: () => {
      ended = true;
      return pool.end();
    },
    commandsRan: () => ended,
    configGet: (key, cwd) => readUserConfig(gitPath, env, key, cwd),
  };
}

function firstLine(stdout: Uint8Array): string {
  return decoder.decode(stdout).split("\n")[0];
}

/**
 * A real git repository in a temporary directory for tests, with isolated git
 * configuration, removed by `await using`. Shared by unit and end-to-end tests;
 * it uses `Deno.*` (tests only).
 *
 * @example
 * ```ts
 * await using repo = await tempRepo({ "waves.jsonc": '{ "name": "x" }' });
 * const base = await repo.commit("base");
 * await repo.write("waves.jsonc", "{}");
 * const head = await repo.commit("head");
 * const log = await repo.git("log", "--oneline");
 * ```
 * @module
 */

import { dirname, join } from "node:path";

/** The identity every commit of a temp repo is made with. */
export const TEST_USER = { name: "Chant Test", email: "test@chant.invalid" };

/** A temporary git repository; `await using` removes it and everything under `root`. */
export interface TempRepo extends AsyncDisposable {
  /** The temporary directory holding `path` and `home` (real path, no symlinks); free for scratch use (e.g. clones). */
  readonly root: string;
  /** The repository's work tree (`<root>/repo`), its real path. */
  readonly path: string;
  /** An empty directory used as `HOME` in {@linkcode TempRepo.env}. */
  readonly home: string;
  /**
   * An environment for child processes (pass with `clearEnv: true`): `PATH` from
   * this process, `HOME` = {@linkcode TempRepo.home}, `GIT_CONFIG_GLOBAL=/dev/null`,
   * `GIT_CONFIG_NOSYSTEM=1`, `LC_ALL=C`, `GIT_TERMINAL_PROMPT=0`, and the author and
   * committer identity of {@linkcode TEST_USER} (so clones can commit too).
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Runs `git <args>` in the work tree with {@linkcode TempRepo.env}.
   * @param args The arguments after `git`.
   * @returns stdout without trailing whitespace.
   * @throws {Error} With git's stderr when it exits non-zero.
   */
  git(...args: string[]): Promise<string>;
  /**
   * Runs `git <args>` in `cwd` (e.g. a clone under `root`) with the same env.
   * @param cwd The directory to run in.
   * @param args The arguments after `git`.
   * @returns stdout without trailing whitespace.
   * @throws {Error} With git's stderr when it exits non-zero.
   */
  gitIn(cwd: string, ...args: string[]): Promise<string>;
  /**
   * Writes `text` at `path` (relative to the work tree), creating directories.
   * @param path `/`-separated, relative to the work tree.
   * @param text The file's content.
   */
  write(path: string, text: string): Promise<void>;
  /**
   * Writes `files` (if any), stages everything (`add -A`) and commits, allowing an
   * empty commit.
   * @param message The commit message.
   * @param files Files to write first: path → text.
   * @returns The new commit's full sha.
   */
  commit(message: string, files?: Record<string, string>): Promise<string>;
}

/**
 * Creates a git repository (`init -b main`, `user.name`/`user.email` in its own
 * config) in a new temporary directory and writes `layout` into its work tree,
 * uncommitted: call `commit()` to commit it.
 * @param layout Files to write: path relative to the work tree → text.
 * @returns The repository; dispose it to remove the directory.
 * @throws {Error} When git fails (it must be on PATH).
 */
export async function tempRepo(
  layout: Record<string, string> = {},
): Promise<TempRepo> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "chant-wave-repo-" }),
  );
  const path = join(root, "repo");
  const home = join(root, "home");
  await Deno.mkdir(path);
  await Deno.mkdir(home);
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: TEST_USER.name,
    GIT_AUTHOR_EMAIL: TEST_USER.email,
    GIT_COMMITTER_NAME: TEST_USER.name,
    GIT_COMMITTER_EMAIL: TEST_USER.email,
  };
  const gitIn = (cwd: string, ...args: string[]) => runGit(cwd, env, args);
  const git = (...args: string[]) => gitIn(path, ...args);
  const write = async (file: string, text: string) => {
    const target = join(path, file);
    await Deno.mkdir(dirname(target), { recursive: true });
    await Deno.writeTextFile(target, text);
  };
  const writeAll = async (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) await write(file, text);
  };

  await git("init", "-q", "-b", "main");
  await git("config", "user.name", TEST_USER.name);
  await git("config", "user.email", TEST_USER.email);
  await git("config", "commit.gpgSign", "false");
  await writeAll(layout);

  return {
    root,
    path,
    home,
    env,
    git,
    gitIn,
    write,
    async commit(message, files = {}) {
      await writeAll(files);
      await git("add", "-A");
      await git("commit", "-q", "--allow-empty", "-m", message);
      return await git("rev-parse", "HEAD");
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

async function runGit(
  cwd: string,
  env: Record<string, string>,
  args: string[],
): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!out.success) {
    throw new Error(
      `git ${args.join(" ")} failed (exit ${out.code}): ${
        decoder.decode(out.stderr).trim()
      }`,
    );
  }
  return decoder.decode(out.stdout).trimEnd();
}

/**
 * The environments git runs in: an explicit, isolated one that ignores the user's
 * global and system configuration (for everything chant-wave decides with git), and
 * the user's own one (only for reading settings such as `user.email`). Pure: it
 * builds objects from the environment it is given and never reads the process's.
 * Also the two reads of the user's own git configuration (one setting for
 * `Git.configGet`, the `safe.directory` values read once git refuses a
 * checkout), and where a directory stands in its work tree, found once per
 * directory (it does not move while chant-wave runs): from the file system for
 * git's plain layout, else asked of git.
 * @module
 */

import { GitError } from "./git_error.ts";
import { type GitOutput, spawnGit } from "./_spawn_git.ts";
import { type Place, plainPlace } from "./plain_place.ts";
import {
  refuseCheckoutSettings,
  SETTINGS_ARGS,
} from "./repository_settings.ts";

export type { Place };

/** An environment as a plain object (like `process.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Variables passed through from the caller's environment to git: what git needs to
 * find programs, its home and temporary directory, and to reach remotes (SSH agent,
 * askpass helpers, proxies, CA bundles). Everything else, notably `GIT_DIR`,
 * `GIT_WORK_TREE`, `GIT_INDEX_FILE` and `GIT_CONFIG_*`, is dropped.
 */
export const PASSED_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "TMPDIR",
  "TMP",
  "TEMP",
  "SYSTEMROOT",
  "SystemRoot",
  "COMSPEC",
  "PATHEXT",
  "WINDIR",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_SSH_VARIANT",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
] as const;

/**
 * Variables that choose which configuration the user's own git reads; passed
 * through, in addition to {@linkcode PASSED_ENV}, only by {@linkcode userGitEnv}.
 */
export const USER_CONFIG_ENV = [
  "XDG_CONFIG_HOME",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_NOSYSTEM",
] as const;

/** The fixed variables of {@linkcode isolatedGitEnv}; they win over everything. */
export const ISOLATION_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  LC_ALL: "C",
  GIT_TERMINAL_PROMPT: "0",
  // Objects are what their ids say: a replace ref or a graft in the checkout
  // (which a plan command could add) never swaps a blob, tree or parent.
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_GRAFT_FILE: "/dev/null",
};

function pick(env: Env, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/**
 * Builds the environment chant-wave runs git in: {@linkcode PASSED_ENV} taken from
 * `env`, then `overrides` (e.g. `GIT_AUTHOR_NAME` for a ledger commit), then
 * {@linkcode ISOLATION_ENV}, so the user's global (`~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config`) and system configuration are never read, messages
 * are in the C locale (stable to match on), git never prompts, and no replace ref
 * or graft changes what an object id names. The repository's
 * own `.git/config` is still read (CI checkouts keep credentials there).
 * @param env The caller's environment (the CLI passes `process.env`).
 * @param overrides Extra variables for one command; cannot undo the isolation.
 * @returns A new environment object.
 * @example
 * ```ts
 * isolatedGitEnv({ PATH: "/usr/bin", GIT_DIR: "/x" });
 * // { PATH: "/usr/bin", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1",
 * //   LC_ALL: "C", GIT_TERMINAL_PROMPT: "0", GIT_NO_REPLACE_OBJECTS: "1",
 * //   GIT_GRAFT_FILE: "/dev/null" }
 * ```
 */
export function isolatedGitEnv(
  env: Env,
  overrides: Env = {},
): Record<string, string> {
  return {
    ...pick(env, PASSED_ENV),
    ...pick(overrides, Object.keys(overrides)),
    ...ISOLATION_ENV,
  };
}

/**
 * Builds the environment for reading the user's own git settings: like
 * {@linkcode isolatedGitEnv} but the variables that choose configuration files
 * ({@linkcode USER_CONFIG_ENV}) are passed through and global and system
 * configuration are read as the user's git would. Only for `Git.configGet`.
 * @param env The caller's environment.
 * @returns A new environment object with `LC_ALL=C` and `GIT_TERMINAL_PROMPT=0`.
 */
export function userGitEnv(env: Env): Record<string, string> {
  return {
    ...pick(env, PASSED_ENV),
    ...pick(env, USER_CONFIG_ENV),
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
  };
}

/**
 * Carries the user's `safe.directory` settings into the isolated environment as
 * command-scope configuration (`GIT_CONFIG_COUNT`), which git honours for this
 * protected setting: a CI checkout owned by another user (a container job) that
 * the user's global configuration trusts stays trusted, and nothing else of that
 * configuration leaks in.
 * @param directories The user's `safe.directory` values.
 * @returns Variables to add to the isolated environment (none for no values).
 * @example
 * ```ts
 * safeDirectoryEnv(["/work"]);
 * // { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "safe.directory", GIT_CONFIG_VALUE_0: "/work" }
 * ```
 */
export function safeDirectoryEnv(
  directories: readonly string[],
): Record<string, string> {
  if (directories.length === 0) return {};
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(directories.length),
  };
  directories.forEach((directory, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = "safe.directory";
    env[`GIT_CONFIG_VALUE_${i}`] = directory;
  });
  return env;
}

const decoder = new TextDecoder();

/**
 * `git config --get <key>` in the user's own environment (see `Git.configGet`).
 * @param gitPath The git executable.
 * @param env The caller's environment.
 * @param key The setting.
 * @param cwd Where to run.
 * @returns The value, or `undefined` when it is not set.
 * @throws {GitError} When git fails otherwise.
 */
export async function readUserConfig(
  gitPath: string,
  env: Env,
  key: string,
  cwd: string,
): Promise<string | undefined> {
  const args = ["config", "--get", key];
  const out = await spawnGit(args, { gitPath, cwd, env: userGitEnv(env) });
  if (out.exitCode === 0) return decoder.decode(out.stdout).split("\n")[0];
  // exit 1 and silence: not set; exit 1 with a message: an invalid key.
  if (out.exitCode === 1 && out.stderr.trim() === "") return undefined;
  throw new GitError(args, out.exitCode, out.stderr);
}

/**
 * The user's `safe.directory` values (global and system configuration), read at
 * most once per `Git`, when git first refuses a checkout; none when git cannot
 * tell.
 * @param gitPath The git executable.
 * @param env The caller's environment.
 * @returns The values.
 */
export async function readSafeDirectories(
  gitPath: string,
  env: Env,
): Promise<string[]> {
  const args = ["config", "--get-all", "safe.directory"];
  const out = await spawnGit(args, { gitPath, cwd: "/", env: userGitEnv(env) })
    .catch(() => undefined);
  if (out?.exitCode !== 0) return [];
  return decoder.decode(out.stdout).split("\n").filter((line) => line !== "");
}

function notInWorkTree(stderr: string): boolean {
  return /not a git repository|must be run in a work tree/.test(stderr);
}

/**
 * Makes the finder of one git seam: the file system answers for git's plain
 * layout (`plain_place.ts`: its settings are `.git/config` alone), git for
 * anything else, which then also lists the repository's settings and refuses
 * those that come from a file of the checkout (`repository_settings.ts`).
 * @param exec Runs git (its result whatever the exit code).
 * @returns The place of a directory, `undefined` outside a work tree.
 * @throws {InputError} (as a rejection) When the settings come from a file of
 * the checkout; asked again, it refuses again.
 */
export function placeFinder(
  exec: (args: readonly string[], o: { cwd: string }) => Promise<GitOutput>,
): (cwd: string) => Promise<Place | undefined> {
  const places = new Map<string, Promise<Place | undefined>>();
  const find = async (cwd: string) => {
    const plain = await plainPlace(cwd);
    if (plain !== undefined) return plain;
    const args = ["rev-parse", "--show-toplevel", "--show-prefix"];
    const out = await exec(args, { cwd });
    if (out.exitCode === 0) {
      const [top, prefix] = decoder.decode(out.stdout).split("\n");
      const settings = await exec(SETTINGS_ARGS, { cwd });
      if (settings.exitCode !== 0) {
        throw new GitError(SETTINGS_ARGS, settings.exitCode, settings.stderr);
      }
      await refuseCheckoutSettings(decoder.decode(settings.stdout), top);
      return { top, prefix };
    }
    if (notInWorkTree(out.stderr)) return undefined;
    throw new GitError(args, out.exitCode, out.stderr);
  };
  return (cwd) => {
    const known = places.get(cwd);
    if (known !== undefined) return known;
    const asked = find(cwd);
    places.set(cwd, asked);
    // A failure is not kept: the next question asks git again.
    asked.then((place) => {
      if (place === undefined) places.delete(cwd);
    }, () => places.delete(cwd));
    return asked;
  };
}

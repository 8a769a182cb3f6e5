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
import { InputError } from "../errors.ts";
import {
  refuseCheckoutGitFolder,
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

/**
 * Settings every git command of chant-wave runs with, above the repository's
 * own (command scope): git runs no hook and no file-system monitor for
 * chant-wave, whatever `.git/config` or a file it includes names (a program
 * of the change there would run in a job whose change runs no code, such as
 * a sqitch rollout's). The user's `safe.directory` values follow them.
 */
export const PINNED_SETTINGS: readonly (readonly [string, string])[] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
];

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
  ...settingsEnv(PINNED_SETTINGS, 0),
};

/** `GIT_CONFIG_KEY_<i>`/`GIT_CONFIG_VALUE_<i>` of `pairs`, numbered from `from`. */
function settingsEnv(
  pairs: readonly (readonly [string, string])[],
  from: number,
): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(from + pairs.length),
  };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${from + i}`] = key;
    env[`GIT_CONFIG_VALUE_${from + i}`] = value;
  });
  return env;
}

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
 * are in the C locale (stable to match on), git never prompts, no replace ref
 * or graft changes what an object id names, and git runs no hook and no
 * file-system monitor ({@linkcode PINNED_SETTINGS}). The repository's own
 * `.git/config` is still read (CI checkouts keep credentials there); the
 * `safe.directory` values of `overrides` follow the pinned settings.
 * @param env The caller's environment (the CLI passes `process.env`).
 * @param overrides Extra variables for one command; cannot undo the isolation.
 * @returns A new environment object.
 * @example
 * ```ts
 * isolatedGitEnv({ PATH: "/usr/bin", GIT_DIR: "/x" });
 * // { PATH: "/usr/bin", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1",
 * //   LC_ALL: "C", GIT_TERMINAL_PROMPT: "0", GIT_NO_REPLACE_OBJECTS: "1",
 * //   GIT_GRAFT_FILE: "/dev/null", GIT_CONFIG_COUNT: "2",
 * //   GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "/dev/null",
 * //   GIT_CONFIG_KEY_1: "core.fsmonitor", GIT_CONFIG_VALUE_1: "false" }
 * ```
 */
export function isolatedGitEnv(
  env: Env,
  overrides: Env = {},
): Record<string, string> {
  const isolated = {
    ...pick(env, PASSED_ENV),
    ...pick(overrides, Object.keys(overrides)),
    ...ISOLATION_ENV,
  };
  // safe.directory values (`safeDirectoryEnv`) come after the pinned settings.
  const count = Number(overrides.GIT_CONFIG_COUNT ?? 0);
  if (count > PINNED_SETTINGS.length) isolated.GIT_CONFIG_COUNT = String(count);
  return isolated;
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
 * // { GIT_CONFIG_COUNT: "3", GIT_CONFIG_KEY_2: "safe.directory", GIT_CONFIG_VALUE_2: "/work" }
 * // (after the two pinned settings, which isolatedGitEnv sets)
 * ```
 */
export function safeDirectoryEnv(
  directories: readonly string[],
): Record<string, string> {
  if (directories.length === 0) return {};
  return settingsEnv(
    directories.map((directory) => ["safe.directory", directory] as const),
    PINNED_SETTINGS.length,
  );
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

/** The arguments that list a repository's work trees. */
const WORKTREES_ARGS = ["worktree", "list", "--porcelain", "-z"];

/** Runs git; its stdout, or a {@linkcode GitError}. */
/**
 * The refusal of a work tree that is a submodule: the change chooses the
 * submodule's commit and where it comes from, so its spec, its base's history
 * and its ledger would all be the change's.
 */
function inSubmodule(top: string, superproject: string): InputError {
  return new InputError(
    `"${top}" is a submodule of "${superproject}": the change chooses a ` +
      `submodule's commit and where it comes from, so the spec, the base and ` +
      `the ledger read there would be the change's; run chant-wave in the ` +
      `superproject's work tree`,
  );
}

async function must(
  exec: (args: readonly string[], o: { cwd: string }) => Promise<GitOutput>,
  args: readonly string[],
  cwd: string,
): Promise<string> {
  const out = await exec(args, { cwd });
  if (out.exitCode !== 0) throw new GitError(args, out.exitCode, out.stderr);
  return decoder.decode(out.stdout);
}

/**
 * Makes the finder of one git seam: the file system answers for git's plain
 * layout (`plain_place.ts`: its settings are `.git/config` alone), git for
 * anything else, which then also lists the repository's settings and work
 * trees and refuses settings that come from a file of a work tree
 * (`repository_settings.ts`).
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
    const args = [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--show-prefix",
      "--git-dir",
      "--git-common-dir",
      // Last: it prints nothing outside a submodule.
      "--show-superproject-working-tree",
    ];
    const out = await exec(args, { cwd });
    if (out.exitCode === 0) {
      const [top, prefix, gitDir, commonDir, superproject] = decoder.decode(
        out.stdout,
      ).split("\n");
      if (superproject) throw inSubmodule(top, superproject);
      const settings = await must(exec, SETTINGS_ARGS, cwd);
      const listed = await must(exec, WORKTREES_ARGS, cwd);
      const workTrees = listed.split("\0")
        .filter((line) => line.startsWith("worktree "))
        .map((line) => line.slice("worktree ".length));
      await refuseCheckoutGitFolder([gitDir, commonDir], [top, ...workTrees]);
      await refuseCheckoutSettings(settings, {
        top,
        workTrees,
        gitFolders: [gitDir, commonDir],
      });
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

/**
 * The two reads of the user's own git configuration (global and system, which
 * every other git call ignores): one setting for `Git.configGet`, and the
 * `safe.directory` values read once git refuses a checkout. Private to
 * `src/git/`.
 * @module
 */

import { type Env, userGitEnv } from "./git_env.ts";
import { GitError } from "./git_error.ts";
import { spawnGit } from "./_spawn_git.ts";

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

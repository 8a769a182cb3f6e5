/**
 * Who is acting when a command records a fact without `--by`: the CI actor, then
 * `git config user.email`, then `USER`.
 * @module
 */

import { ciContext } from "../run/ci_context.ts";
import type { CliIo } from "./io.ts";

/**
 * Who runs the command: the CI actor (`GITHUB_ACTOR`, `GITLAB_USER_LOGIN`), then
 * `git config user.email` in the working directory, then `USER`.
 * @param io The environment, the working directory and git.
 * @returns The name, or `undefined` when none is known.
 */
export async function defaultActor(
  io: Pick<CliIo, "env" | "git" | "cwd">,
): Promise<string | undefined> {
  const actor = ciContext(io.env).actor;
  if (actor) return actor;
  const email = await io.git.configGet("user.email", io.cwd).catch(() =>
    undefined
  );
  if (email) return email;
  return io.env.USER || undefined;
}

/**
 * Who is running chant-wave, for the records that name a person (approvals, runs
 * out of order): the CI actor, else git's `user.email`, else `$USER`.
 * @module
 */

import type { Git } from "../git/git.ts";
import { ciContext } from "./ci_context.ts";

/**
 * Tells who runs this command.
 * @param io The environment, git and the working directory.
 * @returns The CI actor, git's `user.email` or `$USER`; `undefined` when none is known.
 */
export async function whoRuns(
  io: { env: Record<string, string | undefined>; git: Git; cwd: string },
): Promise<string | undefined> {
  const actor = ciContext(io.env).actor;
  if (actor) return actor;
  const email = await io.git.configGet("user.email", io.cwd).catch(() =>
    undefined
  );
  return email || io.env.USER || undefined;
}

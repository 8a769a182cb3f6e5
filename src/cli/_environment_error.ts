/**
 * Problems of the machine a command runs on, told apart from bugs (SPEC.md
 * §2.1): git missing from PATH is not an internal error but invalid input,
 * exit 2, with what to install.
 * @module
 */

import { stat } from "node:fs/promises";
import { visible } from "../console/visible.ts";
import { InputError } from "../errors.ts";
import { GitError } from "../git/git.ts";

/**
 * The input error an environment problem stands for: git could not be started
 * because it is not on PATH (a start that fails with "no such file" while the
 * working directory exists).
 * @param error What a command threw.
 * @param io The environment and working directory.
 * @returns The input error, or `undefined` when `error` is something else.
 * @example
 * ```ts
 * await environmentError(new Error("x"), { env: {}, cwd: "/" }); // undefined
 * ```
 */
export async function environmentError(
  error: unknown,
  io: { env: Record<string, string | undefined>; cwd: string },
): Promise<InputError | undefined> {
  if (!(error instanceof GitError) || error.exitCode !== undefined) {
    return undefined;
  }
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  if (code !== "ENOENT") return undefined;
  const here = await stat(io.cwd).then((s) => s.isDirectory(), () => false);
  if (!here) return undefined;
  return new InputError(
    `git is not installed, or not on PATH (${
      visible(io.env.PATH ?? "unset")
    }): chant-wave runs git to read the spec at base, the change's history and the git ledger`,
    [
      "install git and run again (Debian, Ubuntu: apt-get install git; Alpine: apk add git; Fedora, RHEL: dnf install git; macOS: xcode-select --install)",
    ],
  );
}

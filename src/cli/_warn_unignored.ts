/**
 * The `.chant/` hygiene check (SPEC.md §9): warns when the working directory is in
 * a git repository that does not ignore `.chant/`, where plan files and decisions
 * could be committed by accident.
 * @module
 */

import type { CliIo } from "./io.ts";

/**
 * Prints a warning on stderr when `.chant/` is not git-ignored. Silent outside a
 * repository or when git cannot tell.
 * @param io The edges.
 */
export async function warnUnignored(
  io: Pick<CliIo, "git" | "cwd" | "stderr">,
): Promise<void> {
  const { exitCode } = await io.git.exec([
    "check-ignore",
    "--quiet",
    "--",
    ".chant/waves",
  ], { cwd: io.cwd });
  if (exitCode === 1) {
    io.stderr.write(
      'warning: ".chant/" is not git-ignored here; add ".chant/" to .gitignore\n',
    );
  }
}

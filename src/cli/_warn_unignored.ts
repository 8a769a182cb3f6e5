/**
 * The `.chant/` hygiene check (SPEC.md §9): warns when the working directory is in
 * a git repository that does not ignore `.chant/`, where plan files and decisions
 * could be committed by accident.
 * @module
 */

import type { CliIo } from "./io.ts";

/**
 * Asks git now whether `.chant/` is git-ignored (the answer comes while the
 * command goes on), and returns what prints the warning on stderr once it is
 * in, when it is not. Silent outside a repository or when git cannot tell.
 * @param io The edges.
 * @returns Awaits the answer and warns; it throws what asking threw.
 */
export function checkUnignored(
  io: Pick<CliIo, "git" | "cwd" | "stderr">,
): () => Promise<void> {
  const asked = io.git.exec([
    "check-ignore",
    "--quiet",
    "--",
    ".chant/waves",
  ], { cwd: io.cwd });
  // Awaited by the caller, or not at all when the command stops before.
  asked.catch(() => {});
  return async () => {
    const { exitCode } = await asked;
    if (exitCode === 1) {
      io.stderr.write(
        'warning: ".chant/" is not git-ignored here; add ".chant/" to .gitignore\n',
      );
    }
  };
}

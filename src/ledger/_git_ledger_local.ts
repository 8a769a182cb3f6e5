/**
 * Which records only the local branch of the git ledger holds (written while
 * there was no remote), told apart from records the remote's tip lacks because
 * compaction folded them away. Private to the git ledger.
 * @module
 */

import type { Git } from "../git/git.ts";
import { addedFiles, blobsAt, type LedgerFile } from "./_git_ledger_tree.ts";

/**
 * The record files of `local` that never reached the remote: those `base`
 * lacks, less those of the last commit `local` shares with `base`'s history
 * (`base` lacks those only because `ledger compact` folded them away, and
 * carrying them again would bring back what a revoke ended). A shallow clone
 * that finds no shared commit fetches the branch's whole history first, once;
 * branches with no history in common share nothing.
 * @param ctx The ledger: the git seam, the checkout, the remote (none: local mode).
 * @param base The remote's tip (`undefined`: none yet).
 * @param local The local branch.
 * @param deepen Fetches the branch's whole history.
 * @returns The files, sorted by path.
 * @throws {GitError} When git fails.
 */
export async function localOnlyFiles(
  ctx: { git: Git; cwd: string; remote?: string },
  base: string | undefined,
  local: string,
  deepen: () => Promise<void>,
): Promise<LedgerFile[]> {
  const { git, cwd } = ctx;
  const added = await addedFiles(git, cwd, base, local);
  if (added.length === 0 || base === undefined) return added;
  let common = await mergeBase(git, cwd, base, local);
  if (common === undefined && ctx.remote !== undefined) {
    await deepen();
    common = await mergeBase(git, cwd, base, local);
  }
  if (common === undefined) return added;
  const shared = new Set(
    (await blobsAt(git, cwd, common, ["gates/"], true)).map((b) => b.path),
  );
  return added.filter((file) => !shared.has(file.path));
}

/** The best common ancestor of two commits, if they have one here. */
async function mergeBase(
  git: Git,
  cwd: string,
  a: string,
  b: string,
): Promise<string | undefined> {
  const out = await git.exec(["merge-base", a, b], { cwd });
  const sha = new TextDecoder().decode(out.stdout).trim();
  return out.exitCode === 0 && sha !== "" ? sha : undefined;
}

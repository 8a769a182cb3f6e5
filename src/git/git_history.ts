/**
 * Questions about a checkout's history that base resolution asks (SPEC.md §4.4):
 * is one commit an ancestor of another, and is the clone shallow. Thin calls on
 * the `Git` seam; what the answers mean for a gate is the policy's business.
 * @module
 */

import { type Git, GitError } from "./git.ts";

/**
 * Tells whether `ancestor` is an ancestor of `descendant` (a commit counts as its
 * own ancestor, as `git merge-base --is-ancestor` says).
 * @param git The git seam.
 * @param ancestor A full commit sha.
 * @param descendant A full commit sha.
 * @param cwd A directory in the repository.
 * @returns `true` when it is.
 * @throws {GitError} When git fails (an unknown commit, a broken repository).
 */
export async function isAncestor(
  git: Git,
  ancestor: string,
  descendant: string,
  cwd: string,
): Promise<boolean> {
  const args = ["merge-base", "--is-ancestor", ancestor, descendant];
  const out = await git.exec(args, { cwd });
  if (out.exitCode === 0) return true;
  if (out.exitCode === 1) return false;
  throw new GitError(args, out.exitCode, out.stderr);
}

/**
 * Tells whether `ancestor` is a strict ancestor of `descendant`: an ancestor, and
 * not the same commit.
 * @param git The git seam.
 * @param ancestor A full commit sha.
 * @param descendant A full commit sha.
 * @param cwd A directory in the repository.
 * @returns `true` when it is.
 * @throws {GitError} When git fails.
 */
export async function isStrictAncestor(
  git: Git,
  ancestor: string,
  descendant: string,
  cwd: string,
): Promise<boolean> {
  return ancestor !== descendant &&
    await isAncestor(git, ancestor, descendant, cwd);
}

/**
 * Tells whether the checkout is a shallow clone (its history cut off).
 * @param git The git seam.
 * @param cwd A directory in the repository.
 * @returns `true` for a shallow clone.
 * @throws {GitError} When git fails.
 */
export async function isShallow(git: Git, cwd: string): Promise<boolean> {
  const out = await git.run(["rev-parse", "--is-shallow-repository"], { cwd });
  return out.trim() === "true";
}

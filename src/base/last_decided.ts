/**
 * The last trusted decision as a base (SPEC.md §4.4, §12.1): beside the commit
 * a trusted rule names (the commit before the push, `--base`, the spec's
 * `base`), a job also reads the rules at the newest commit the ledger records
 * a trusted decision of the rollout at. A commit pushed where no job ran
 * (`[skip ci]`, a cancelled pipeline) becomes the base of the next push, yet
 * the next job applies what it changed: it is still part of the change, so it
 * neither loosens the rules that govern it nor makes its author someone else
 * than the change's. Read before the job's first command, so what the change's
 * code writes to the ledger cannot move it. An edge over git; the decisions
 * are the ledger's.
 * @module
 */

import type { Git } from "../git/git.ts";
import { isStrictAncestor } from "../git/git_history.ts";

/**
 * The newest recorded trusted decision that is a strict ancestor of HEAD in
 * this checkout.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param head HEAD's full sha.
 * @param decided The decision heads, oldest first.
 * @returns Its full sha, or `undefined` when none is (or the checkout lacks them).
 */
export async function lastDecidedAncestor(
  git: Git,
  top: string,
  head: string,
  decided: readonly string[],
): Promise<string | undefined> {
  for (const sha of [...decided].reverse()) {
    const resolved = await git.resolveCommit(sha, top);
    if (
      resolved !== undefined &&
      await isStrictAncestor(git, resolved, head, top)
    ) return resolved;
  }
  return undefined;
}

/**
 * A base whose spec does not parse (SPEC.md §4.4, amended by issue 37): its
 * rules are those of the newest version of the spec before it, on its
 * first-parent chain, that parses, or of no spec where the file was absent
 * (deleted, or not yet added). A version that does not parse is skipped, never
 * read: it can loosen nothing, and a typo pushed and then fixed deadlocks
 * nothing. Only when every version back to the root fails to parse does the
 * strictest default hold, and the job then says how to get out. This module
 * walks git and says what it found; what the rules there are is the pure
 * core's (`policy_at_base.ts`, `approval_at_base.ts`).
 * @module
 */

import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { isShallow } from "../git/git_plumbing.ts";
import type { BaseSpec, PolicyBase } from "../gate/base_spec.ts";
import { FETCH_DEPTH_HINT } from "./resolve_base.ts";

/** Where a base whose spec does not parse reads its rules. */
export type ValidVersion =
  /** The newest commit before it where the spec parses, or is absent. */
  | { status: "found"; sha: string }
  /** No version before it parses, back to the root commit. */
  | { status: "none" };

/** How many commits of the spec's history one `git log` lists. */
const PAGE = 50;

/**
 * Finds the newest version of the spec before `sha` on its first-parent chain
 * that parses, or where the file is absent. The commits where the file changed
 * are listed newest first; the first of them holds the version at `sha`
 * itself, so the walk reads from the second on. When the history ends with the
 * file present, the commit before its oldest change has no file (the change
 * added it), unless that change is the root commit; or a link on the path
 * there, which is no version to read either (then `none`).
 * @param git The git seam.
 * @param top The repository's top level.
 * @param sha The base commit (full sha), whose spec does not parse.
 * @param path The spec's path from the top level.
 * @param versionAt Reads the spec at a commit; a link or submodule on the path
 *   there reads as a spec that does not parse (never followed, never fatal).
 * @returns The commit to read the rules at, or `none`.
 * @throws {InputError} Exit 2 when the walk reaches the edge of a shallow
 *   clone: what lies beyond could be a stricter version.
 * @throws {GitError} When git fails.
 */
export async function newestValidVersion(
  git: Git,
  top: string,
  sha: string,
  path: string,
  versionAt: (sha: string) => Promise<BaseSpec>,
): Promise<ValidVersion> {
  let oldest: string | undefined;
  for (let skip = 0;; skip += PAGE) {
    const page = (await git.run([
      "--literal-pathspecs",
      "log",
      "--first-parent",
      "--format=%H",
      `--max-count=${PAGE}`,
      `--skip=${skip}`,
      sha,
      "--",
      path,
    ], { cwd: top, memo: true })).split("\n").filter((line) => line !== "");
    for (const commit of page) {
      // The newest change holds the version at `sha` itself.
      if (oldest !== undefined) {
        const spec = await versionAt(commit);
        if (spec.status !== "unparsable") {
          return { status: "found", sha: commit };
        }
      }
      oldest = commit;
    }
    if (page.length < PAGE) break;
  }
  const before = oldest === undefined
    ? undefined
    : await git.resolveCommit(`${oldest}^1`, top);
  if (before !== undefined) {
    // No file there, unless a link on the path hid it from the log.
    const spec = await versionAt(before);
    return spec.status === "unparsable"
      ? { status: "none" }
      : { status: "found", sha: before };
  }
  if (await isShallow(git, top)) {
    throw new InputError(
      `the spec at ${
        sha.slice(0, 12)
      } does not parse, and the versions before it are not in this checkout: it is a shallow clone`,
      [FETCH_DEPTH_HINT],
    );
  }
  return { status: "none" };
}

/**
 * The lines a job logs once for each base whose spec does not parse: where its
 * rules were read instead, or, when no version parses, that the strictest
 * default holds and how to get out.
 * @param bases The bases the job reads the rules at, as `readBase` built them.
 * @param specPath The spec's path from the top level.
 * @returns The lines, each once.
 * @example
 * ```ts
 * invalidBaseLines([{ sha: v, spec, standsFor: { sha: t, problem: "…" } }], "waves.jsonc");
 * // ['note: waves.jsonc does not parse at <t12> (…); every rule is read at <v12>, the newest version before it that parses']
 * ```
 */
export function invalidBaseLines(
  bases: readonly PolicyBase[],
  specPath: string,
): string[] {
  const lines: string[] = [];
  let stuck = false;
  for (const base of bases) {
    const broken = base.standsFor ??
      (base.spec.status === "unparsable"
        ? { sha: base.sha, problem: base.spec.problem }
        : undefined);
    if (broken === undefined) continue;
    const at = `${specPath} does not parse at ${
      broken.sha.slice(0, 12)
    } (${broken.problem})`;
    const v12 = base.sha.slice(0, 12);
    if (base.spec.status === "parsed") {
      lines.push(
        `note: ${at}; every rule is read at ${v12}, the newest version before it that parses`,
      );
      continue;
    }
    stuck = true;
    lines.push(
      base.spec.status === "absent"
        ? `warning: ${at}, and no version before it parses (${v12} has no ${specPath}): every wave needs an approval, as with no spec at base`
        : `warning: ${at}, and no version before it parses: every wave needs an approval by someone who wrote none of the change (the strictest default)`,
    );
  }
  if (stuck) {
    lines.push(
      `to get out: approve each wave as printed, or push a commit on top of one whose ${specPath} parses ` +
        `(an empty one will do: git commit --allow-empty -m "read the fixed spec"); its push reads the rules there`,
    );
  }
  return [...new Set(lines)];
}

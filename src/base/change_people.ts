/**
 * Who made a change (SPEC.md §12.1): the authors and committers of every commit
 * in `base..HEAD`, and the commits themselves, read with `git log`, for the rule
 * `selfApproval: false` (a job that ran any of those commits ran the change).
 * Commit metadata is whatever the pusher wrote: a hint, never proof of who
 * someone is. An edge; comparing them with approvers is the gate's business.
 * @module
 */

import type { Git } from "../git/git.ts";
import {
  type ChangePeople,
  type ChangePerson,
  MAX_CHANGE_COMMITS,
} from "../gate/judge_approvals.ts";

export { type ChangePeople, MAX_CHANGE_COMMITS };

/**
 * Lists the authors' and committers' names and e-mail addresses of the commits
 * reachable from `head` but not from `base` (merged-in commits included).
 * @param git The git seam.
 * @param top The repository's top level.
 * @param range The base and head commits (full shas).
 * @returns Each name and address with its role (repeats included) and the
 *   commits, or `too-long` when the range holds more than
 *   {@linkcode MAX_CHANGE_COMMITS}.
 * @throws {GitError} When git fails (a commit missing from the checkout).
 */
export async function changePeople(
  git: Git,
  top: string,
  range: { base: string; head: string },
): Promise<ChangePeople> {
  const stdout = await git.run([
    "log",
    "--no-mailmap",
    `--max-count=${MAX_CHANGE_COMMITS + 1}`,
    "--format=%H%x00%an%x00%ae%x00%cn%x00%ce%x00",
    `${range.base}..${range.head}`,
    "--",
  ], { cwd: top, memo: true });
  const fields = stdout.split("\0");
  const people: ChangePerson[] = [];
  const commits: string[] = [];
  for (let i = 0; i + 4 < fields.length; i += 5) {
    const [sha, an, ae, cn, ce] = fields.slice(i, i + 5).map((f) => f.trim());
    commits.push(sha);
    people.push(
      { who: an, role: "author" },
      { who: ae, role: "author" },
      { who: cn, role: "committer" },
      { who: ce, role: "committer" },
    );
  }
  if (commits.length > MAX_CHANGE_COMMITS) {
    return { status: "too-long", commits: commits.length };
  }
  return {
    status: "known",
    people: people.filter((p) => p.who !== ""),
    commits,
  };
}

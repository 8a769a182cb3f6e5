/**
 * The commits a waiting job was judged at, in this checkout (SPEC.md §12.1):
 * its HEAD and its bases, as its pending fact records them. A commit this
 * checkout lacks is fetched from the remote by its sha; when that cannot be
 * done, the reason says which commit is missing and the command that fetches
 * it, so `approve`, `show` and `status` never judge at another commit than the
 * job. An edge over git.
 * @module
 */

import { fetchCommits } from "../git/git_transport.ts";
import type { Git } from "../git/git.ts";
import type { PendingRecord } from "../gate/records.ts";
import { shellLine } from "../shell_words.ts";

/** The remote a missing commit is fetched from when none is named. */
export const DEFAULT_FETCH_REMOTE = "origin";

/** A full commit sha, the only thing ever passed to `git fetch`. */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The waiting job's commits here, or why they are not. */
export type WaitingCommits =
  | { status: "found"; head?: string; bases: string[] }
  | { status: "missing"; why: string };

/**
 * Finds the waiting job's HEAD and bases in this checkout, fetching those it
 * lacks from `remote` first.
 * @param pending The pending fact (its `head`, `base` and `bases`).
 * @param git The git seam.
 * @param top The work tree's top level.
 * @param remote The remote to fetch from.
 * @returns The full shas (`head` absent when the fact names none), or why a
 *   commit is missing.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function waitingCommits(
  pending: Pick<PendingRecord, "head" | "base" | "bases">,
  git: Git,
  top: string,
  remote: string = DEFAULT_FETCH_REMOTE,
): Promise<WaitingCommits> {
  const bases = pending.bases ?? [pending.base];
  const named: Commit[] = [
    ...(pending.head ? [{ sha: pending.head, what: HEAD }] : []),
    ...bases.map((sha) => ({ sha, what: "the base commit" })),
  ];
  const lacking = await lackingOf(named, git, top);
  if (lacking.length > 0) {
    const why = await fetchLacking(lacking, git, top, remote);
    if (why !== undefined) return { status: "missing", why };
  }
  const found = [];
  for (const { sha } of named) found.push((await git.resolveCommit(sha, top))!);
  return pending.head
    ? { status: "found", head: found[0], bases: found.slice(1) }
    : { status: "found", bases: found };
}

const HEAD = "the waiting job's HEAD";

/** A commit the pending fact names, and what it is to the waiting job. */
interface Commit {
  sha: string;
  what: string;
}

/** The commits this checkout does not have. */
async function lackingOf(
  commits: readonly Commit[],
  git: Git,
  top: string,
): Promise<Commit[]> {
  const lacking = [];
  for (const commit of commits) {
    if (await git.resolveCommit(commit.sha, top) === undefined) {
      lacking.push(commit);
    }
  }
  return lacking;
}

/** Fetches the lacking commits; the reason when some are still missing. */
async function fetchLacking(
  lacking: readonly Commit[],
  git: Git,
  top: string,
  remote: string,
): Promise<string | undefined> {
  const first = lacking[0];
  const missing = `${first.what} ${
    first.sha.slice(0, 12)
  } is not in this checkout`;
  // What the ledger says is checked before git sees it as an argument.
  if (!lacking.every((c) => FULL_SHA.test(c.sha))) return missing;
  const shas = lacking.map((c) => c.sha);
  const command = shellLine(["git", "fetch", remote, ...shas]);
  const remotes = (await git.run(["remote"], { cwd: top })).split("\n");
  if (!remotes.includes(remote)) {
    return `${missing}, which has no remote "${remote}" to fetch it from; fetch it (${command}) and run this again`;
  }
  const fetched = await fetchCommits(git, top, remote, shas);
  const still = await lackingOf(lacking, git, top);
  if (still.length === 0) return undefined;
  return `${still[0].what} ${
    still[0].sha.slice(0, 12)
  } is not in this checkout, and fetching it from "${remote}" failed${
    fetched.ok ? "" : ` (${fetched.detail})`
  }; fetch it (${command}) and run this again`;
}

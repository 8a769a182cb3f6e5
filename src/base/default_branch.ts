/**
 * The repository's default branch as the forge names it, and its tip in this
 * checkout (SPEC.md §4.4, §4.12): a manual run, a new branch or a force push has
 * no trusted commit before it, and its own first-parent history may never meet
 * the merged configuration (an orphan branch, a branch forked before the gate
 * was tightened), so the chain rule also reads the rules at the tip of the
 * branch the forge says is the default. The forge's word is trusted: GitLab's
 * `CI_DEFAULT_BRANCH`, the event payload's `repository.default_branch` on GitHub
 * and Forgejo. An edge over the environment, the event file and git.
 * @module
 */

import { InputError } from "../errors.ts";
import { readBounded } from "../fs/read_bounded.ts";
import type { Git } from "../git/git.ts";
import { fetchRef } from "../git/git_transport.ts";
import { MAX_EVENT_BYTES } from "../limits.ts";
import { quote } from "../quote.ts";

/** A branch name chant-wave will ask git for (no option, no odd characters). */
const BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._\/-]{1,200}$/;

/**
 * The default branch the forge names for this run, if it names one.
 * @param env The environment.
 * @returns The branch name, or `undefined` outside CI or when none is named.
 */
export async function defaultBranchName(
  env: Record<string, string | undefined>,
): Promise<string | undefined> {
  if (env.GITLAB_CI) return checked(env.CI_DEFAULT_BRANCH);
  const actions = env.GITHUB_ACTIONS || env.FORGEJO_ACTIONS ||
    env.GITEA_ACTIONS;
  if (!actions || !env.GITHUB_EVENT_PATH) return undefined;
  try {
    const event = JSON.parse(
      await readBounded(env.GITHUB_EVENT_PATH, {
        maxBytes: MAX_EVENT_BYTES,
        followLinks: true,
      }),
    ) as { repository?: { default_branch?: unknown } } | null;
    const name = event?.repository?.default_branch;
    return typeof name === "string" ? checked(name) : undefined;
  } catch {
    return undefined;
  }
}

function checked(name: string | undefined): string | undefined {
  return name !== undefined && BRANCH.test(name) ? name : undefined;
}

/**
 * The tip of the default branch in this checkout: its remote-tracking ref, else
 * a local branch, else fetched from `origin`.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param branch The branch's name.
 * @returns The tip's full sha.
 * @throws {InputError} Exit 2 when the branch cannot be had here.
 */
export async function defaultBranchTip(
  git: Git,
  top: string,
  branch: string,
): Promise<string> {
  const remote = `refs/remotes/origin/${branch}`;
  for (const ref of [remote, `refs/heads/${branch}`]) {
    const sha = await git.resolveCommit(ref, top);
    if (sha !== undefined) return sha;
  }
  const fetched = await fetchRef(
    git,
    top,
    "origin",
    `refs/heads/${branch}`,
    remote,
  );
  const sha = fetched.ok ? await git.resolveCommit(remote, top) : undefined;
  if (sha === undefined) {
    throw new InputError(
      `the default branch ${
        quote(branch)
      } is not in this checkout, and it could not be fetched from origin`,
      [
        "a run with no trusted commit before it is judged against the default branch too; fetch it (fetch-depth: 0 fetches every branch)",
      ],
    );
  }
  return sha;
}

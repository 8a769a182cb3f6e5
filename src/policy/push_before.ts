/**
 * Which commit the branch pointed at before the push that started this CI run
 * (SPEC.md §4.4): `before` of the push event in `$GITHUB_EVENT_PATH` on GitHub and
 * Forgejo, `$CI_COMMIT_BEFORE_SHA` on GitLab. It reads the environment and the
 * event file only; whether that commit is usable is `resolve_base.ts`'s question.
 * @module
 */

import { readBounded } from "../fs/read_bounded.ts";
import { MAX_EVENT_BYTES } from "../limits.ts";

/** What CI says of the commit before the push. */
export type PushBefore =
  /** A commit sha, and where it was read. */
  | { sha: string; source: string }
  /** CI said something that cannot be used, and why. */
  | { ignored: string };

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ZEROS = /^0+$/;

/**
 * Reads the commit before the push from the CI environment.
 * @param env The process environment.
 * @returns The commit, a reason to ignore what CI said, or `undefined` outside a
 *   push-triggered CI run.
 */
export async function pushBefore(
  env: Record<string, string | undefined>,
): Promise<PushBefore | undefined> {
  if (env.GITLAB_CI && env.CI_COMMIT_BEFORE_SHA !== undefined) {
    return checked(env.CI_COMMIT_BEFORE_SHA, "$CI_COMMIT_BEFORE_SHA");
  }
  const actions = env.GITHUB_ACTIONS || env.FORGEJO_ACTIONS ||
    env.GITEA_ACTIONS;
  const event = env.GITHUB_EVENT_PATH;
  if (!actions || !event) return undefined;
  if ((env.GITHUB_EVENT_NAME ?? "push") !== "push") return undefined;
  let before: unknown;
  try {
    before = (JSON.parse(
      await readBounded(event, {
        maxBytes: MAX_EVENT_BYTES,
        followLinks: true,
      }),
    ) as { before?: unknown } | null)?.before;
  } catch (error) {
    return {
      ignored: `cannot read the push event "${event}": ${
        (error as Error).message
      }`,
    };
  }
  if (typeof before !== "string") {
    return { ignored: `the push event "${event}" has no "before" commit` };
  }
  return checked(before, `"before" of the push event`);
}

function checked(value: string, source: string): PushBefore {
  const sha = value.trim().toLowerCase();
  if (ZEROS.test(sha) && sha.length >= 40) {
    return {
      ignored:
        `${source} is all zeros: the push created the branch, so there is no commit before it`,
    };
  }
  if (!SHA.test(sha)) {
    return {
      ignored: `${source} is not a commit sha: ${
        JSON.stringify(value.slice(0, 80))
      }`,
    };
  }
  return { sha, source };
}

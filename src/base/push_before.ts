/**
 * Which commit the branch pointed at before the push that started this CI run
 * (SPEC.md §4.4, §4.12): `before` of a `push` event in `$GITHUB_EVENT_PATH` on
 * GitHub and Forgejo, `$CI_COMMIT_BEFORE_SHA` of a `push` pipeline on GitLab. The
 * forge is trusted for it only for pushes: a manual, scheduled, API or web run
 * names no trusted commit, and neither does a run outside CI. It reads the
 * environment and the event file only; whether that commit is usable is
 * `resolve_base.ts`'s question.
 * @module
 */

import { isFullSha } from "../input/full_sha.ts";
import { parseJson } from "../input/json_reader.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_EVENT_BYTES } from "../limits.ts";
import { quote } from "../quote.ts";

/** What CI says of the commit before the push. */
export type PushBefore =
  /** A commit sha, and where it was read. */
  | { sha: string; source: string }
  /** CI said something that cannot be used (`ignored`, a warning), and why. */
  | { ignored: string; why: string }
  /** No push named a commit: `why` says what started the run. */
  | { none: string };

const ZEROS = /^0+$/;

/**
 * Reads the commit before the push from the CI environment.
 * @param env The process environment.
 * @returns The commit; a reason to ignore what CI said; or, outside a
 *   push-triggered CI run, what started it (`workflow_dispatch`, `a GitLab web
 *   pipeline`, `not a CI run`).
 */
export async function pushBefore(
  env: Record<string, string | undefined>,
): Promise<PushBefore> {
  if (env.GITLAB_CI) {
    const source = env.CI_PIPELINE_SOURCE;
    if (source !== "push") {
      return {
        none: `a GitLab ${source ? word(source) : "unnamed"} pipeline`,
      };
    }
    if (env.CI_COMMIT_BEFORE_SHA === undefined) {
      return { none: "a GitLab push pipeline without $CI_COMMIT_BEFORE_SHA" };
    }
    return checked(env.CI_COMMIT_BEFORE_SHA, "$CI_COMMIT_BEFORE_SHA");
  }
  if (!isCiRun(env)) return { none: "not a CI run" };
  const name = env.GITHUB_EVENT_NAME;
  if (name !== "push") {
    return { none: name ? word(name) : "no event name" };
  }
  const event = env.GITHUB_EVENT_PATH;
  if (!event) return { none: "a push event without $GITHUB_EVENT_PATH" };
  let json: unknown;
  try {
    json = parseJson(
      await readBounded(event, {
        maxBytes: MAX_EVENT_BYTES,
        followLinks: true,
      }),
    );
  } catch (error) {
    const expected = error instanceof ShapeError ||
      error instanceof BoundedReadError ||
      typeof (error as { code?: unknown }).code === "string";
    if (!expected) throw error;
    return {
      ignored: `cannot read the push event "${event}": ${
        (error as Error).message
      }`,
      why: "an unreadable push event",
    };
  }
  const before = isObject(json) ? json.before : undefined;
  if (typeof before !== "string") {
    return {
      ignored: `the push event "${event}" has no "before" commit`,
      why: "a push event without before",
    };
  }
  return checked(before, `"before" of the push event`);
}

/**
 * Whether this is a CI run chant-wave knows (GitLab, GitHub, Forgejo, Gitea).
 * @param env The process environment.
 * @returns `true` in CI.
 */
export function isCiRun(env: Record<string, string | undefined>): boolean {
  return Boolean(
    env.GITLAB_CI || env.GITHUB_ACTIONS || env.FORGEJO_ACTIONS ||
      env.GITEA_ACTIONS,
  );
}

/** A CI word as it is (`workflow_dispatch`, `web`), anything else quoted. */
function word(value: string): string {
  return /^[a-z][a-z_]{0,39}$/.test(value) ? value : quote(value);
}

function checked(value: string, source: string): PushBefore {
  const sha = value.trim().toLowerCase();
  if (ZEROS.test(sha) && sha.length >= 40) {
    return {
      ignored:
        `${source} is all zeros: the push created the branch, so there is no commit before it`,
      why: "a new branch",
    };
  }
  if (!isFullSha(sha)) {
    return {
      ignored: `${source} is not a commit sha: ${quote(value)}`,
      why: "no usable commit before the push",
    };
  }
  return { sha, source };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

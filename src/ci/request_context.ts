/**
 * Which pull or merge request a CI job runs for, and whether it comes from a
 * fork (SPEC.md §18), from what the forge put in the environment and, on
 * GitHub and Forgejo, the event payload (`$GITHUB_EVENT_PATH`, read by the
 * caller). Trusted as the forge's word (§4.12). It decides only where the plan
 * comment goes, never a gate. Pure.
 * @module
 */

import { ciContext } from "./ci_context.ts";
import { isFullSha } from "../input/full_sha.ts";

/** The request a job runs for. */
export type RequestContext =
  /**
   * A request of this repository: its number (GitLab: iid), and the commit
   * of its target the forge names (GitHub and Forgejo: the target's tip,
   * `pull_request.base.sha`; GitLab: the merge base,
   * `CI_MERGE_REQUEST_DIFF_BASE_SHA`), when it names one.
   */
  | { kind: "request"; number: number; target?: string }
  /** A request from a fork: its token cannot write here. */
  | { kind: "fork"; number: number; target?: string }
  /** Not a request's job (a push, a run outside CI): why, in words. */
  | { kind: "none"; why: string };

const NUMBER = /^[1-9][0-9]{0,9}$/;

/**
 * Finds the request: GitLab `CI_MERGE_REQUEST_IID` (a fork when
 * `CI_MERGE_REQUEST_SOURCE_PROJECT_ID` is not `CI_MERGE_REQUEST_PROJECT_ID`);
 * GitHub and Forgejo the event's `pull_request.number` (a fork when its
 * `head.repo.full_name` is not `GITHUB_REPOSITORY`).
 * @param env The job's environment.
 * @param event The parsed event payload (GitHub, Forgejo), when read.
 * @returns The request, or why there is none.
 * @example
 * ```ts
 * requestContext({ GITLAB_CI: "true", CI_MERGE_REQUEST_IID: "7" });
 * // { kind: "request", number: 7 }
 * ```
 */
export function requestContext(
  env: Record<string, string | undefined>,
  event?: unknown,
): RequestContext {
  const { forge } = ciContext(env);
  if (forge === undefined) {
    return { kind: "none", why: "not in a CI job" };
  }
  if (forge === "gitlab") {
    const iid = env.CI_MERGE_REQUEST_IID ?? "";
    if (!NUMBER.test(iid)) {
      return { kind: "none", why: "not in a merge request pipeline" };
    }
    const source = env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID;
    const fork = source !== undefined &&
      source !== env.CI_MERGE_REQUEST_PROJECT_ID;
    return {
      kind: fork ? "fork" : "request",
      number: Number(iid),
      ...sha(env.CI_MERGE_REQUEST_DIFF_BASE_SHA),
    };
  }
  const pull = field(event, "pull_request");
  const number = field(pull, "number");
  if (typeof number !== "number" || !NUMBER.test(String(number))) {
    return { kind: "none", why: "not in a pull_request event" };
  }
  const from = field(field(field(pull, "head"), "repo"), "full_name");
  const fork = typeof from !== "string" ||
    from.toLowerCase() !== (env.GITHUB_REPOSITORY ?? "").toLowerCase();
  return {
    kind: fork ? "fork" : "request",
    number,
    ...sha(field(field(pull, "base"), "sha")),
  };
}

function sha(value: unknown): { target?: string } {
  return isFullSha(value) ? { target: value } : {};
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The run locator of the CI job chant-wave runs in (SPEC.md §13), read from the
 * environment the forge's runner sets: GitHub `GITHUB_*`; GitLab `CI_*`;
 * Forgejo the `GITHUB_*` compatibility variables its runner sets beside
 * `FORGEJO_*`. Pure; it sits beside `ciContext` and uses it to tell the forges apart.
 * Also how log lines name the job a locator points at, and whether a locator
 * read from the ledger names the forge, API and repository a client was made
 * for: it is untrusted, and the token must never be spent on another
 * repository's jobs.
 * @module
 */

import { ciContext } from "../ci/ci_context.ts";
import { ShapeError } from "../input/shape_error.ts";
import { parseRunLocator, type RunLocator } from "../ci/run_locator.ts";
import type { Forge } from "../ci/forges.ts";

/** What the caller knows that the environment may not say. */
export interface LocatorHints {
  /**
   * The Forgejo workflow file chant-wave rendered (`<spec name>.yml`), used when
   * the runner names none: Forgejo's runner sets `GITHUB_WORKFLOW` to the
   * workflow's `name:`, and no `GITHUB_WORKFLOW_REF`.
   */
  workflowFile?: string;
}

/**
 * The run locator of the current CI job, validated as {@linkcode parseRunLocator}
 * would validate it read back, so a recorded locator always parses.
 *
 * - GitHub (`GITHUB_ACTIONS`): `GITHUB_REPOSITORY`, `GITHUB_RUN_ID`,
 *   `GITHUB_RUN_ATTEMPT` (1 when unset), `GITHUB_API_URL` (default
 *   `https://api.github.com`).
 * - GitLab (`GITLAB_CI`): `CI_API_V4_URL`, `CI_PROJECT_ID`, `CI_PIPELINE_ID`,
 *   `CI_JOB_ID`, `CI_JOB_NAME`.
 * - Forgejo (`FORGEJO_ACTIONS`): `GITHUB_REPOSITORY`, `GITHUB_REF`,
 *   `GITHUB_API_URL` (else `GITHUB_SERVER_URL` + `/api/v1`), and the workflow
 *   file from `GITHUB_WORKFLOW_REF` (`owner/repo/.forgejo/workflows/x.yml@ref`),
 *   else `hints.workflowFile`, else `GITHUB_WORKFLOW` when it is a file name.
 * @param env The process environment.
 * @param hints What the caller knows (the rendered Forgejo workflow file).
 * @returns The locator; `undefined` outside CI or when a variable is missing or malformed.
 * @example
 * ```ts
 * runLocatorFromEnv({ GITHUB_ACTIONS: "true", GITHUB_REPOSITORY: "o/r",
 *   GITHUB_RUN_ID: "7", GITHUB_RUN_ATTEMPT: "2" });
 * // { forge: "github", apiUrl: "https://api.github.com", repository: "o/r", runId: "7", attempt: 2 }
 * ```
 */
export function runLocatorFromEnv(
  env: Record<string, string | undefined>,
  hints: LocatorHints = {},
): RunLocator | undefined {
  const forge = ciContext(env).forge;
  const value = (name: string) => env[name] === "" ? undefined : env[name];
  let candidate: Record<string, unknown> | undefined;
  if (forge === "github") {
    const attempt = value("GITHUB_RUN_ATTEMPT") ?? "1";
    candidate = {
      forge,
      apiUrl: trimSlash(value("GITHUB_API_URL") ?? "https://api.github.com"),
      repository: value("GITHUB_REPOSITORY"),
      runId: value("GITHUB_RUN_ID"),
      attempt: /^\d{1,5}$/.test(attempt) ? Number(attempt) : undefined,
    };
  } else if (forge === "gitlab") {
    candidate = {
      forge,
      apiUrl: trimSlash(value("CI_API_V4_URL")),
      projectId: value("CI_PROJECT_ID"),
      pipelineId: value("CI_PIPELINE_ID"),
      jobId: value("CI_JOB_ID"),
      jobName: value("CI_JOB_NAME"),
    };
  } else if (forge === "forgejo") {
    const server = value("GITHUB_SERVER_URL");
    candidate = {
      forge,
      apiUrl: trimSlash(
        value("GITHUB_API_URL") ??
          (server ? `${trimSlash(server)}/api/v1` : undefined),
      ),
      repository: value("GITHUB_REPOSITORY"),
      workflow: workflowFile(env, hints),
      ref: value("GITHUB_REF"),
    };
  }
  if (candidate === undefined) return undefined;
  try {
    return parseRunLocator(candidate);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return undefined;
  }
}

/** The Forgejo workflow's file name, by the order documented above. */
function workflowFile(
  env: Record<string, string | undefined>,
  hints: LocatorHints,
): string | undefined {
  const ref = env.GITHUB_WORKFLOW_REF;
  if (ref) {
    const path = ref.split("@")[0];
    const match = /\/\.(?:forgejo|gitea|github)\/workflows\/([^/]+)$/.exec(
      path,
    );
    if (match) return match[1];
  }
  if (hints.workflowFile) return hints.workflowFile;
  const name = env.GITHUB_WORKFLOW;
  return name && /^[^/\s]+\.ya?ml$/.test(name) ? name : undefined;
}

function trimSlash(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, "");
}

/**
 * Describes a locator: the forge, the run or job and the repository.
 * @param locator A validated locator.
 * @returns One short phrase.
 * @example
 * ```ts
 * describeLocator({ forge: "github", apiUrl: "https://api.github.com",
 *   repository: "o/r", runId: "7", attempt: 2 });
 * // "GitHub run 7 (attempt 2) of o/r"
 * ```
 */
export function describeLocator(locator: RunLocator): string {
  switch (locator.forge) {
    case "github":
      return `GitHub run ${locator.runId} (attempt ${locator.attempt}) of ${locator.repository}`;
    case "gitlab":
      return `GitLab job ${locator.jobId} "${locator.jobName}" of pipeline ${locator.pipelineId} (project ${locator.projectId})`;
    case "forgejo":
      return `Forgejo workflow ${locator.workflow} on ${locator.ref} of ${locator.repository}`;
  }
}

/** The locator, narrowed to the client's forge, or why it is not the client's. */
export type OwnLocator<F extends Forge> =
  | { ok: true; locator: Extract<RunLocator, { forge: F }> }
  | { ok: false; reason: string };

/**
 * Checks that a locator is this client's to restart. API URLs are compared by
 * origin and path (trailing slash ignored); repositories case-insensitively
 * (GitHub and Forgejo names are), GitLab project ids exactly.
 * @param locator A validated locator.
 * @param forge The client's forge.
 * @param apiUrl The client's API base URL.
 * @param repository The client's repository (GitLab: project id).
 * @returns The narrowed locator, or the reason (one line) it is another's.
 * @example
 * ```ts
 * ownLocator({ forge: "github", apiUrl: "https://api.github.com", repository: "o/r",
 *   runId: "1", attempt: 1 }, "github", new URL("https://api.github.com"), "O/R").ok; // true
 * ```
 */
export function ownLocator<F extends Forge>(
  locator: RunLocator,
  forge: F,
  apiUrl: URL,
  repository: string,
): OwnLocator<F> {
  if (locator.forge !== forge) {
    return { ok: false, reason: `recorded on ${locator.forge}, not ${forge}` };
  }
  const key = (url: URL) => url.origin + url.pathname.replace(/\/+$/, "");
  const theirs = key(new URL(locator.apiUrl));
  if (theirs !== key(apiUrl)) {
    return { ok: false, reason: `recorded for another API (${theirs})` };
  }
  const [recorded, mine] = locator.forge === "gitlab"
    ? [locator.projectId, repository]
    : [locator.repository.toLowerCase(), repository.toLowerCase()];
  return recorded === mine
    ? { ok: true, locator: locator as Extract<RunLocator, { forge: F }> }
    : { ok: false, reason: `recorded for another repository (${recorded})` };
}

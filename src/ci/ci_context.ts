/**
 * What chant-wave learns from the CI system it runs in (SPEC.md §2.2): the run id
 * and URL recorded in ledger records, and the default approver. Pure: reads an
 * environment object.
 * @module
 */

import type { Forge } from "./forges.ts";

/** The CI run, when chant-wave runs in one. */
export interface CiContext {
  /** `github`, `gitlab` or `forgejo`; absent outside CI. */
  forge?: Forge;
  runId?: string;
  runUrl?: string;
  /** Who started the run (the approver default). */
  actor?: string;
}

/**
 * Reads the CI context from the environment.
 * @param env The process environment.
 * @returns What could be learnt; empty outside CI.
 * @example
 * ```ts
 * ciContext({ GITLAB_CI: "true", CI_PIPELINE_ID: "7", GITLAB_USER_LOGIN: "ann" });
 * // { forge: "gitlab", runId: "7", actor: "ann" }
 * ```
 */
export function ciContext(env: Record<string, string | undefined>): CiContext {
  if (env.GITLAB_CI) {
    return defined({
      forge: "gitlab",
      runId: env.CI_PIPELINE_ID,
      runUrl: env.CI_PIPELINE_URL,
      actor: env.GITLAB_USER_LOGIN,
    });
  }
  if (env.GITHUB_ACTIONS || env.FORGEJO_ACTIONS) {
    const server = env.GITHUB_SERVER_URL;
    const repository = env.GITHUB_REPOSITORY;
    const run = env.GITHUB_RUN_ID;
    return defined({
      forge: env.FORGEJO_ACTIONS ? "forgejo" : "github",
      runId: run,
      runUrl: server && repository && run
        ? `${server}/${repository}/actions/runs/${run}`
        : undefined,
      actor: env.GITHUB_ACTOR,
    });
  }
  return {};
}

function defined(context: CiContext): CiContext {
  return Object.fromEntries(
    Object.entries(context).filter(([, value]) => value),
  ) as CiContext;
}

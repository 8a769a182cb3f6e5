/**
 * Where a waiting job's summary sends an approver on the forge (SPEC.md
 * §13.1): on GitHub and Forgejo the approve workflow to run, with a link to
 * the page that runs it when the forge's variables name a server and a
 * repository of a safe form; on GitLab the manual approve job of the wave.
 * Pure: reads an environment object.
 * @module
 */

import { approveJobName, approveWorkflowFile } from "../jobs/approve_job.ts";
import { ciContext } from "../ci/ci_context.ts";

/** How to approve from the forge's own interface. */
export type ApproveClick =
  /** Run the approve workflow (GitHub, Forgejo), at `url` when known. */
  | { workflow: string; url?: string }
  /** Play the manual job (GitLab). */
  | { job: string };

const SERVER = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;
const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

/**
 * The click that approves a waiting wave in the CI system chant-wave runs in.
 * @param name The spec's `name`.
 * @param wave The wave's number and name.
 * @param env The process environment.
 * @returns The click; `undefined` outside CI.
 * @example
 * ```ts
 * approveClick("tf", { k: 2, name: "prod" }, { GITLAB_CI: "true" });
 * // { job: "wave-2-prod-approve" }
 * ```
 */
export function approveClick(
  name: string,
  wave: { k: number; name: string },
  env: Record<string, string | undefined>,
): ApproveClick | undefined {
  const forge = ciContext(env).forge;
  if (forge === undefined) return undefined;
  if (forge === "gitlab") return { job: approveJobName(wave.k, wave.name) };
  const workflow = approveWorkflowFile(name);
  const server = env.GITHUB_SERVER_URL ?? "";
  const repository = env.GITHUB_REPOSITORY ?? "";
  if (!SERVER.test(server) || !REPOSITORY.test(repository)) {
    return { workflow };
  }
  const file = encodeURIComponent(workflow);
  const url = forge === "github"
    ? `${server}/${repository}/actions/workflows/${file}`
    : `${server}/${repository}/actions?workflow=${file}`;
  return { workflow, url };
}

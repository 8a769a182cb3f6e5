/**
 * Where a waiting job sends an approver on the forge (SPEC.md §13.1), in its
 * log and its job summary: on GitHub and Forgejo the approve workflow to run
 * with the wave and the digest, with a link to the page that runs it when the
 * forge's variables name a server and a repository of a safe form; on GitLab
 * the manual approve job of the wave that brings the next approval. Pure:
 * reads an environment object.
 * @module
 */

import {
  approveJobName,
  approveWorkflowFile,
  approveWorkflowName,
} from "../jobs/approve_job.ts";
import { ciContext } from "../ci/ci_context.ts";
import { FORGE_NAMES } from "../ci/forges.ts";

/** How to approve from the forge's own interface. */
export type ApproveClick =
  /** Run the approve workflow (GitHub, Forgejo), at `url` when known. */
  | { forge: "github" | "forgejo"; workflow: string; url?: string }
  /** Play the manual job (GitLab). */
  | { forge: "gitlab"; job: string };

const SERVER = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;
const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

/**
 * The click that approves a waiting wave in the CI system chant-wave runs in.
 * @param name The spec's `name`.
 * @param wave The wave's number and name, and its gate in the working copy
 *   (a wave whose gate is `never` there has no click path rendered).
 * @param env The process environment.
 * @param next Which approval the click brings (GitLab's approve job), from 1.
 * @returns The click; `undefined` outside CI, or for a wave without a click path.
 * @example
 * ```ts
 * approveClick("tf", { k: 2, name: "prod", gate: "always" }, { GITLAB_CI: "true" }, 1);
 * // { forge: "gitlab", job: "wave-2-prod-approve-1" }
 * ```
 */
export function approveClick(
  name: string,
  wave: { k: number; name: string; gate: string },
  env: Record<string, string | undefined>,
  next: number,
): ApproveClick | undefined {
  const forge = ciContext(env).forge;
  if (forge === undefined || wave.gate === "never") return undefined;
  if (forge === "gitlab") {
    return { forge, job: approveJobName(wave.k, wave.name, next) };
  }
  const workflow = approveWorkflowFile(name);
  const server = env.GITHUB_SERVER_URL ?? "";
  const repository = env.GITHUB_REPOSITORY ?? "";
  if (!SERVER.test(server) || !REPOSITORY.test(repository)) {
    return { forge, workflow };
  }
  const file = encodeURIComponent(workflow);
  const url = forge === "github"
    ? `${server}/${repository}/actions/workflows/${file}`
    : `${server}/${repository}/actions?workflow=${file}`;
  return { forge, workflow, url };
}

/**
 * The log line that names the click, printed before the `then approve:` line.
 * On a sealed gate only a signature counts: GitLab's click then only lets the
 * pipeline go on, and the approve workflow cannot approve at all.
 * @param click The click, from {@linkcode approveClick}.
 * @param name The spec's `name`.
 * @param wave The wave's number.
 * @param digest The digest that waits.
 * @param sealed Whether the gate counts only signed approvals.
 * @returns The line; `undefined` when no click approves.
 * @example
 * ```ts
 * approveLine({ forge: "gitlab", job: "wave-3-prod-approve-1" }, "demo", 3, d, false);
 * // "approve on GitLab: play the manual job wave-3-prod-approve-1 in this pipeline"
 * ```
 */
export function approveLine(
  click: ApproveClick,
  name: string,
  wave: number,
  digest: string,
  sealed: boolean,
): string | undefined {
  if (click.forge === "gitlab") {
    const play = `play the manual job ${click.job} in this pipeline`;
    return sealed
      ? `approve with a signature (below), then ${play} to go on`
      : `approve on GitLab: ${play}`;
  }
  if (sealed) return undefined;
  return `approve on ${FORGE_NAMES[click.forge]}: run the workflow "${
    approveWorkflowName(name)
  }" with wave ${wave} and digest ${digest}`;
}

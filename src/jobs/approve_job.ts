/**
 * The names the click path of SPEC.md §13.1 is built on, shared by the
 * renderers (which make the approve workflow, the GitLab gate jobs and their
 * child pipelines), the run (which writes a GitLab child pipeline), the
 * waiting lines and job summary (which say which click approves), the forge
 * confirmations (which check that the forge's run or job is exactly that one)
 * and `check` and `pipeline` (which name the token a click needs): the approve
 * workflow's file, name and run name, the GitLab job names and the child
 * pipeline's path, the waves that get a click, and the token. Pure.
 * @module
 */

import type { Forge } from "../ci/forges.ts";
import type { Spec } from "../spec/types.ts";

/**
 * The approve workflow's file name (GitHub, Forgejo).
 * @param name The spec's `name`.
 * @returns `<name>.approve.yml`.
 * @example
 * ```ts
 * approveWorkflowFile("tf"); // "tf.approve.yml"
 * ```
 */
export function approveWorkflowFile(name: string): string {
  return `${name}.approve.yml`;
}

/**
 * The approve workflow's name, as the forge's Actions page lists it.
 * @param name The spec's `name`.
 * @returns `chant-wave <name> approve`.
 * @example
 * ```ts
 * approveWorkflowName("tf"); // "chant-wave tf approve"
 * ```
 */
export function approveWorkflowName(name: string): string {
  return `chant-wave ${name} approve`;
}

/**
 * The run name of an approve workflow run that asks for `digest` on wave `k`:
 * the forge shows it (`display_title`), so it binds the run to the plans.
 * @param name The spec's `name`.
 * @param wave The wave's number, as the run's input gives it.
 * @param digest The set digest, as the run's input gives it.
 * @returns `chant-wave <name>: approve wave <k> <digest>`.
 * @example
 * ```ts
 * approveRunName("tf", "2", "sha256:…"); // "chant-wave tf: approve wave 2 sha256:…"
 * ```
 */
export function approveRunName(
  name: string,
  wave: string,
  digest: string,
): string {
  return `chant-wave ${name}: approve wave ${wave} ${digest}`;
}

/** The most approvals a wave may require (SPEC.md §12.1), so the most approve jobs. */
export const MAX_APPROVE_JOBS = 100;

/**
 * The manual job that brings the `i`-th approval of wave `k` (GitLab): it
 * passes once `i` distinct approvals of the decided plans count.
 * @param k The wave's number.
 * @param waveName The wave's name.
 * @param i Which approval, from 1.
 * @returns `wave-<k>-<name>-approve-<i>`.
 * @example
 * ```ts
 * approveJobName(2, "prod", 1); // "wave-2-prod-approve-1"
 * ```
 */
export function approveJobName(k: number, waveName: string, i: number): string {
  return `wave-${k}-${waveName}-approve-${i}`;
}

/**
 * Which approval a GitLab job brings, when it is one of wave `k`'s approve jobs.
 * @param job The job's name, as the forge shows it.
 * @param k The wave's number.
 * @param waveName The wave's name.
 * @returns `i` for `wave-<k>-<name>-approve-<i>` (1 to 100); else `undefined`.
 * @example
 * ```ts
 * approveJobIndex("wave-2-prod-approve-2", 2, "prod"); // 2
 * approveJobIndex("wave-2-prod-decide", 2, "prod"); // undefined
 * ```
 */
export function approveJobIndex(
  job: string,
  k: number,
  waveName: string,
): number | undefined {
  const prefix = approveJobName(k, waveName, 0).slice(0, -1);
  if (!job.startsWith(prefix)) return undefined;
  const rest = job.slice(prefix.length);
  if (!/^[1-9][0-9]{0,2}$/.test(rest)) return undefined;
  const i = Number(rest);
  return i <= MAX_APPROVE_JOBS ? i : undefined;
}

/**
 * The GitLab job that runs wave `k`'s child pipeline (a trigger job): after
 * the job that decides the wave, before every job of the next wave.
 * @param k The wave's number.
 * @param waveName The wave's name.
 * @returns `wave-<k>-<name>-gate`.
 * @example
 * ```ts
 * gateJobName(3, "prod"); // "wave-3-prod-gate"
 * ```
 */
export function gateJobName(k: number, waveName: string): string {
  return `wave-${k}-${waveName}-gate`;
}

/**
 * The one job of the child pipeline of a whole wave that applied without
 * waiting (GitLab: a child pipeline holds at least one job).
 * @param k The wave's number.
 * @param waveName The wave's name.
 * @returns `wave-<k>-<name>-applied`.
 * @example
 * ```ts
 * appliedJobName(1, "dev"); // "wave-1-dev-applied"
 * ```
 */
export function appliedJobName(k: number, waveName: string): string {
  return `wave-${k}-${waveName}-applied`;
}

/**
 * Where the job that decides wave `k` writes its GitLab child pipeline (beside
 * its decision record), which the gate job includes as an artifact.
 * @param name The spec's `name`.
 * @param k The wave's number.
 * @returns `.chant/waves/<name>/wave-<k>.gitlab-ci.yml`.
 * @example
 * ```ts
 * childPipelinePath("demo", 2); // ".chant/waves/demo/wave-2.gitlab-ci.yml"
 * ```
 */
export function childPipelinePath(name: string, k: number): string {
  return `.chant/waves/${name}/wave-${k}.gitlab-ci.yml`;
}

/**
 * The waves a click can approve: those whose gate (in the working copy) is not
 * `never`, and those with freeze windows (SPEC.md §19: during a window any
 * wave that changes something waits for an approval). A wave the base still
 * gates but the working copy does not is approved with `chant-wave approve`.
 * @param spec The spec.
 * @returns The waves' numbers and names, in order.
 * @example
 * ```ts
 * gatedWaves(spec); // [{ k: 2, name: "prod" }]
 * ```
 */
export function gatedWaves(spec: Spec): { k: number; name: string }[] {
  return spec.waves.filter((wave) =>
    wave.gate !== "never" || wave.freeze.length > 0
  ).map((wave) => ({
    k: wave.k,
    name: wave.name,
  }));
}

/** What approving with a click takes on one forge. */
export interface ClickNeeds {
  /** The click (`play the wave's manual job …`, `run the workflow "…"`). */
  how: string;
  /** The token it needs, in words, or that it needs none. */
  token: string;
}

/**
 * What a click on `forge` needs to approve a wave of `spec` (as written here):
 * which variable holds which token, or that it needs none. A wave that does
 * not wait needs no click, so no token.
 * @param forge The forge.
 * @param spec The spec.
 * @returns The click and its token; `undefined` when no wave is gated.
 * @example
 * ```ts
 * clickNeeds("gitlab", spec)?.token; // "a click needs no token"
 * ```
 */
export function clickNeeds(forge: Forge, spec: Spec): ClickNeeds | undefined {
  const gated = spec.waves.filter((wave) => wave.gate !== "never");
  if (gated.length === 0) return undefined;
  if (forge === "gitlab") {
    const confirms = [spec, ...gated].some((part) => part.approval === "forge");
    return {
      how:
        "play the wave's manual job wave-<k>-<name>-approve-<i> in the pipeline",
      token: confirms
        ? "its forge gates' jobs confirm each click through the API with GITLAB_TOKEN (a project access token with read_api, as a masked variable)"
        : "a click needs no token",
    };
  }
  return {
    how: `run the workflow "${approveWorkflowName(spec.name)}"`,
    token: forge === "github"
      ? "it uses its own GITHUB_TOKEN (actions: write): nothing to set"
      : "it needs a token with the write:repository scope as the secret CHANT_WAVE_FORGE_TOKEN",
  };
}

/**
 * The names the click path of SPEC.md §13.1 is built on, shared by the
 * renderers (which make the approve workflow and the manual approve jobs), the
 * job summary (which says which to run) and the forge confirmations (which
 * check that the forge's run or job is exactly that one): the approve
 * workflow's file and run name, the manual approve job's name, and the waves
 * that get one. Pure.
 * @module
 */

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

/**
 * The manual approve job of wave `k` (GitLab).
 * @param k The wave's number.
 * @param waveName The wave's name.
 * @returns `wave-<k>-<name>-approve`.
 * @example
 * ```ts
 * approveJobName(2, "prod"); // "wave-2-prod-approve"
 * ```
 */
export function approveJobName(k: number, waveName: string): string {
  return `wave-${k}-${waveName}-approve`;
}

/**
 * The waves a click can approve: those whose gate (in the working copy) is not
 * `never`. A wave the base still gates but the working copy does not is
 * approved with `chant-wave approve`.
 * @param spec The spec.
 * @returns The waves' numbers and names, in order.
 * @example
 * ```ts
 * gatedWaves(spec); // [{ k: 2, name: "prod" }]
 * ```
 */
export function gatedWaves(spec: Spec): { k: number; name: string }[] {
  return spec.waves.filter((wave) => wave.gate !== "never").map((wave) => ({
    k: wave.k,
    name: wave.name,
  }));
}

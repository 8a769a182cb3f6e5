/**
 * The lines a sqitch rollout's GitLab child pipeline runs in its jobs
 * (`pipeline`: `install`, `image`, `setup`, `variables`), read at base: the
 * deciding job writes the child at run time, so taking them from the change's
 * spec would turn an edit of the spec alone into shell lines in the wave's
 * jobs, where a sqitch rollout runs no command of the change (SPEC.md §17,
 * §4.12). Every version the job reads at base must say the same; a version
 * without a spec, or one that does not parse, says nothing. An OpenTofu,
 * Terraform or command rollout runs the change's code in its jobs anyway, and
 * keeps the working copy's. Pure.
 * @module
 */

import type { BaseSpec } from "../gate/base_spec.ts";
import type { Pipeline, Spec } from "../spec/types.ts";

/**
 * The `pipeline` of the child's jobs.
 * @param spec The working copy's spec.
 * @param bases The base commits and the spec at each.
 * @returns The pipeline to render with (none when the spec sets none), or why
 *   there is none to trust.
 * @example
 * ```ts
 * childPipelineAtBase(spec, [{ sha, spec: { status: "absent" } }]);
 * // { why: "there is no waves.jsonc at 0123456789ab" } for a sqitch spec
 * ```
 */
export function childPipelineAtBase(
  spec: Spec,
  bases: readonly { sha: string; spec: BaseSpec }[],
): { pipeline: Pipeline | undefined } | { why: string } {
  if (spec.plan.kind !== "tool" || spec.plan.tool.kind !== "sqitch") {
    return { pipeline: spec.pipeline };
  }
  let agreed: string | undefined;
  let pipeline: Pipeline | undefined;
  for (const { sha, spec: at } of bases) {
    const short = sha.slice(0, 12);
    if (at.status !== "parsed") {
      return {
        why: at.status === "absent"
          ? `there is no spec at ${short}`
          : `the spec at ${short} does not parse`,
      };
    }
    const text = JSON.stringify(at.spec.pipeline ?? null);
    if (agreed !== undefined && text !== agreed) {
      return { why: `the versions at base say different things (${short})` };
    }
    agreed = text;
    pipeline = at.spec.pipeline;
  }
  return agreed === undefined
    ? { why: "no version was read at base" }
    : { pipeline };
}

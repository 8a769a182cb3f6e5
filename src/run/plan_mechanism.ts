/**
 * How plans are made and judged is read at base (SPEC.md §4.12): whether the
 * spec plans with its own commands or with a tool (OpenTofu, Terraform,
 * sqitch), and, for OpenTofu and Terraform, the program. The tool judges
 * whether a plan is destructive (its `show -json`, PostgreSQL's parser), so a
 * change that swapped the tool for commands of its own, or the program for a
 * script that answers `show -json` as it likes, would decide `on-destructive`
 * for itself; and a sqitch rollout runs no command of the change. A job whose
 * spec plans otherwise than a version at base of the same file stops (exit 2)
 * before any command of the change runs; the switch counts once merged.
 * (sqitch's own program, client and verify are read at base by
 * `sqitch_at_base.ts`.) Pure.
 * @module
 */

import { InputError } from "../errors.ts";
import type { BaseSpec } from "../gate/base_spec.ts";
import type { Command } from "../spec/command_types.ts";

/**
 * How a spec plans, as one phrase: `its own commands`, `the sqitch tool`,
 * `the opentofu tool (program "tofu")`.
 * @param plan The spec's `plan`.
 * @returns The phrase; two specs plan alike when their phrases are equal.
 */
export function mechanismOf(plan: Command): string {
  if (plan.kind !== "tool") return "its own commands";
  const { tool } = plan;
  return tool.kind === "sqitch"
    ? "the sqitch tool"
    : `the ${tool.kind} tool (program ${JSON.stringify(tool.binary)})`;
}

/**
 * Checks that every version at base plans as the working copy does.
 * @param plan The working copy's `plan`.
 * @param specFile The spec file, as the job names it.
 * @param bases The base commits and the spec at each.
 * @throws {InputError} When a version at base plans otherwise.
 */
export function checkPlanMechanism(
  plan: Command,
  specFile: string,
  bases: readonly { sha: string; spec: BaseSpec }[],
): void {
  const here = mechanismOf(plan);
  for (const { sha, spec } of bases) {
    if (spec.status !== "parsed") continue;
    const there = mechanismOf(spec.spec.plan);
    if (there !== here) {
      throw new InputError(
        `${specFile} plans with ${here}, the version at ${
          sha.slice(0, 12)
        } with ${there}: how plans are made and judged is read at base, so the switch counts once it is merged`,
      );
    }
  }
}

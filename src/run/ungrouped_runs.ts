/**
 * With `discover` and job groups, every discovered run must fall in exactly one
 * group before the gate (SPEC.md §4.10), or the deciding job fails. Pure.
 * @module
 */

import { compilePattern } from "../spec/group_pattern.ts";
import type { Wave } from "../spec/types.ts";
import type { FailedRun, PlannedRun } from "./run_outcomes.ts";

/**
 * The discovered runs that match no job group, or more than one.
 * @param wave The wave (its `discover` and `jobs`).
 * @param planned The planned runs.
 * @returns One failed run for each, naming the groups it matches.
 * @example
 * ```ts
 * ungroupedRuns({ ...wave, discover: false }, planned); // []
 * ```
 */
export function ungroupedRuns(
  wave: Pick<Wave, "discover" | "jobs">,
  planned: readonly Pick<PlannedRun, "target">[],
): FailedRun[] {
  if (!wave.discover || wave.jobs === undefined) return [];
  const groups = wave.jobs.map((group) => ({
    name: group.name,
    patterns: group.runs.map(compilePattern),
  }));
  const failed: FailedRun[] = [];
  for (const { target } of planned) {
    const matching = groups.filter((g) =>
      g.patterns.some((p) => p.test(target))
    ).map((g) => `"${g.name}"`);
    if (matching.length === 1) continue;
    const why = matching.length === 0
      ? "matches no job group"
      : `matches job groups ${matching.join(" and ")}`;
    failed.push({
      target,
      message: `discovered run "${target}" ${why}`,
      tail: [],
    });
  }
  return failed;
}

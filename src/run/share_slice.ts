/**
 * What a share or group job is given (SPEC.md §4.7): its slice of the wave's
 * runs (or the group's, or for a `discover` wave the decided ones), sorted by
 * target and cut into the shares; the tag that names its files; and the result
 * it starts from. Pure.
 * @module
 */

import { OK } from "../exit_codes.ts";
import type { Decision } from "../gate/decision.ts";
import type { JobResult } from "../jobs/job_result.ts";
import { sliceShare } from "../jobs/slice_shares.ts";
import type { Run } from "../spec/types.ts";
import type { RunJobInput } from "./job_input.ts";
import { groupRuns } from "./select_job.ts";

/**
 * This job's runs: the wave's (or the group's) sorted by target, sliced.
 * @param input The job (its wave, share and group).
 * @param decision The decision (its members are a `discover` wave's runs).
 * @returns The slice, sorted by target.
 * @example
 * ```ts
 * shareSlice(shareTwoOfTwo, decision).map((run) => run.target); // ["t3"]
 * ```
 */
export function shareSlice(input: RunJobInput, decision: Decision): Run[] {
  const { selection: { wave, share, group } } = input;
  const candidates: Run[] = wave.discover
    ? decision.members.map(({ target, op }) => ({ target, op }))
    : wave.runs;
  const pool = group ? groupRuns(group, candidates) : candidates;
  return sliceShare(pool, group ? group.shares : wave.shares, share ?? 1);
}

/**
 * Names the job's files: `share-2`, `group-eu`, `group-eu-share-1`.
 * @param input The job (its share and group).
 * @returns The tag.
 * @example
 * ```ts
 * shareJobTag({ selection: { share: 2 } } as RunJobInput); // "share-2"
 * ```
 */
export function shareJobTag(input: RunJobInput): string {
  const { share, group } = input.selection;
  return group
    ? `group-${group.name}${share ? `-share-${share}` : ""}`
    : `share-${share}`;
}

/**
 * The result a share or group job starts from: its slice, nothing done yet.
 * @param input The job.
 * @param decision The decision it applies.
 * @param slice Its slice.
 * @returns `OK`, with the job, the decision and the slice's targets.
 */
export function shareResult(
  input: RunJobInput,
  decision: Decision,
  slice: readonly Run[],
): JobResult {
  const { selection: { wave, kind, share, group } } = input;
  return {
    exitCode: OK,
    wave: wave.k,
    job: {
      kind,
      ...(share === undefined ? {} : { share }),
      ...(group ? { group: group.name } : {}),
    },
    decision,
    applied: [],
    failed: [],
    moved: [],
    untried: [],
    skipped: [],
    runs: slice.map((run) => run.target),
  };
}

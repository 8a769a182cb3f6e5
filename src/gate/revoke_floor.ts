/**
 * What every revoke a gate holds ends together (SPEC.md §5.3, §13.1): the
 * newest revoke by place cuts what a decision reads, but its time and its
 * forge floor are only what its writer put there, and in `sealed` and `forge`
 * modes the change's code may write one (dated long ago, naming no action).
 * An approval whose authority carries its own time or action (a seal signs
 * its time; a click names its run or job) is judged against the strictest of
 * all revokes read: the latest time, the highest ids. Also which approvals a
 * revoke or summary names by id. Pure.
 * @module
 */

import { higherActions } from "./action_floor.ts";
import type { ActionsThrough, LedgerRecord } from "./records.ts";

/** The strictest of a gate's revokes. */
export interface RevokeFloor {
  /** The latest revoke's time, ms since the epoch (`-Infinity`: none). */
  at: number;
  /** The highest approve run and job ids any revoke ended. */
  actions?: ActionsThrough;
}

/**
 * The strictest floor of the revokes among `records`.
 * @param records A gate's records (any order).
 * @returns The latest time and the highest forge ids of its revokes.
 * @example
 * ```ts
 * revokeFloor([]); // { at: -Infinity }
 * ```
 */
export function revokeFloor(records: readonly LedgerRecord[]): RevokeFloor {
  let at = -Infinity;
  let actions: ActionsThrough | undefined;
  for (const record of records) {
    if (record.kind !== "expired") continue;
    at = Math.max(at, Date.parse(record.timestamp));
    actions = higherActions(actions, record.actionsThrough);
  }
  return actions === undefined ? { at } : { at, actions };
}

/**
 * The approvals some `expired` record or `folded` summary names: they never
 * count again (compaction folds only approvals a revoke ended, so a summary
 * naming a live one is not compaction's).
 * @param records A gate's records (any order).
 * @returns Their ids.
 * @example
 * ```ts
 * endedApprovals([]).size; // 0
 * ```
 */
export function endedApprovals(
  records: readonly LedgerRecord[],
): Set<string> {
  const ended = new Set<string>();
  for (const record of records) {
    if (record.kind === "expired" || record.kind === "folded") {
      for (const id of record.approvals ?? []) ended.add(id);
    }
  }
  return ended;
}

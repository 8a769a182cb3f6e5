/**
 * What every revoke a gate holds ends together (SPEC.md §5.3, §13.1): the
 * newest revoke by place cuts what a decision reads, but its time and its
 * forge floor are only what its writer put there, and in `sealed` and `forge`
 * modes the change's code may write one (dated long ago, naming no action).
 * An approval whose authority carries its own time or action (a seal signs
 * its time; a click names its run or job) is judged against the strictest of
 * all revokes read: the latest time, the highest ids. Also which approvals a
 * revoke or summary names by id, and whether a gate's records from its newest
 * revoke on leave a decision nothing to approve with. Pure.
 * @module
 */

import { higherActions } from "./action_floor.ts";
import type {
  ActionsThrough,
  ApprovalRecord,
  ExpiredRecord,
  LedgerRecord,
} from "./records.ts";

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

/** The records after the newest `expired` one (all of them when there is none). */
export function afterNewestExpired(
  records: readonly LedgerRecord[],
): { live: readonly LedgerRecord[]; expired?: ExpiredRecord } {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record.kind === "expired") {
      return { live: records.slice(i + 1), expired: record };
    }
  }
  return { live: records };
}

/**
 * The approvals that count, newest first: after the newest `expired` record and
 * not ended by any, nor named by a `folded` summary. A sealed approval must
 * also have been signed after every revoke read was written (`revoke_floor.ts`):
 * its seal signs its time, not its place, so a copy of an ended one that
 * reaches the ledger later stays ended (`approval_copies.ts`).
 * @param records The gate's records, oldest first.
 * @returns The counting approvals, newest first.
 * @example
 * ```ts
 * countingApprovals([]); // []
 * ```
 */
export function countingApprovals(
  records: readonly LedgerRecord[],
): ApprovalRecord[] {
  const ended = endedApprovals(records);
  const { live } = afterNewestExpired(records);
  const revokedAt = revokeFloor(records).at;
  return live
    .filter((r): r is ApprovalRecord =>
      r.kind === "approval" && !ended.has(r.id) &&
      !(r.seal !== undefined && Date.parse(r.timestamp) <= revokedAt)
    )
    .reverse();
}

/**
 * Whether a gate's records from its newest revoke on hold a revoke and no
 * approval: a decision on them waits, and reads what came before the revoke
 * too, so its reasons can say which approval was revoked.
 * @param live The records from the newest revoke on.
 * @returns `true` when the whole gate is read for the reasons.
 */
export function revokedWithoutApproval(
  live: readonly LedgerRecord[],
): boolean {
  return live.some((record) => record.kind === "expired") &&
    !live.some((record) => record.kind === "approval");
}

/**
 * When a gate never revoked may be cut anyway (docs/ledger.md, "Compacting the
 * ledger"), pure: every approval since its newest revoke is spent, so a revoke
 * written now ends nothing a decision could still count, and compaction can
 * fold what it ends. An approval is spent as `spent_approvals.ts` says (its
 * plans applied, or their targets moved past them), and one some revoke or
 * summary names, always. Nothing may wait: no claim
 * since that revoke lacks its outcome, and the newest pending fact standing
 * has an approval or a wave outcome of its digest after it. Writing the
 * revoke, and folding through it, is the store's business; a revoke ends
 * whatever it ends, so a wrong answer here can only ask for a fresh approval.
 * @module
 */

import { newestPending } from "./decide_gate.ts";
import { allSettled, claimsByApproval } from "./claims.ts";
import {
  afterNewestExpired,
  endedApprovals,
  revokeFloor,
} from "./revoke_floor.ts";
import { actionsThrough } from "./action_floor.ts";
import {
  type ActionsThrough,
  type ApprovalRecord,
  type ExpiredRecord,
  expiredRecord,
  type LedgerRecord,
} from "./records.ts";
import type { PlanSetMember } from "./plan_set_file.ts";
import { SETTLED_BY, SETTLED_NOTE } from "./gate_messages.ts";
import { spentApprovals } from "./spent_approvals.ts";

/** How many approval ids one `expired` record lists, to stay within 64 KiB. */
export const MAX_ENDED = 1000;

/** The revoke that settles a gate. */
export interface SpentCut {
  /** The approvals it ends (the newest {@linkcode MAX_ENDED}), oldest first. */
  approvals: string[];
  /**
   * Its time: a millisecond after the newest record's, or `now` when that is
   * earlier. Everything it folds is dated before it, and sorts before it where
   * records are ordered by time; an approval signed after it is not ended by
   * it.
   */
  at: number;
  /** The forge actions it ends: those its approvals name, and every revoke's. */
  actionsThrough?: ActionsThrough;
}

/**
 * The revoke that settles a gate whose approvals since its newest revoke are all
 * spent and where nothing waits, if it is so (see the module).
 * @param records The gate's records in ledger order, future-dated ones
 *   included.
 * @param sets The plan set of each approved digest that has one (an `empty`
 *   member needs no apply).
 * @param now The clock's time, milliseconds since the Unix epoch.
 * @returns The revoke's fields, or `undefined`: no approval since the newest
 *   revoke, or one not spent, or something waits.
 * @example
 * ```ts
 * spentCut([], new Map(), Date.now()); // undefined
 * ```
 */
export function spentCut(
  records: readonly LedgerRecord[],
  sets: ReadonlyMap<string, readonly PlanSetMember[]>,
  now: number,
): SpentCut | undefined {
  const { live } = afterNewestExpired(records);
  const approvals = live.filter((r): r is ApprovalRecord =>
    r.kind === "approval"
  );
  if (approvals.length === 0 || waits(records, live, now)) return undefined;
  const ended = endedApprovals(records);
  const spentIds = spentApprovals(records, sets);
  const spent = (approval: ApprovalRecord) =>
    ended.has(approval.id) || spentIds.has(approval.id);
  if (!approvals.every(spent)) return undefined;
  const newest = Math.max(...records.map((r) => Date.parse(r.timestamp)));
  const through = actionsThrough(approvals, revokeFloor(records).actions);
  return {
    approvals: approvals.map((a) => a.id).slice(-MAX_ENDED),
    at: Math.min(now, newest + 1),
    ...(through === undefined ? {} : { actionsThrough: through }),
  };
}

/**
 * Whether something since the newest revoke waits: a claim without its outcome
 * (a job applies now, or died), or the newest pending fact standing with no
 * approval and no wave outcome of its digest after it (a rollout waits for an
 * approval).
 */
function waits(
  records: readonly LedgerRecord[],
  live: readonly LedgerRecord[],
  now: number,
): boolean {
  if (![...claimsByApproval(live).values()].every(allSettled)) return true;
  const pending = newestPending(records, now);
  if (pending === undefined) return false;
  const after = live.slice(live.indexOf(pending) + 1);
  return !after.some((record) =>
    (record.kind === "approval" && record.planDigest === pending.planDigest) ||
    (record.kind === "wave-outcome" && record.digest === pending.planDigest)
  );
}

/**
 * The digests whose plan sets {@linkcode spentCut} reads: those of the
 * approvals since the newest revoke.
 * @param records The gate's records in ledger order.
 * @returns The set digests.
 * @example
 * ```ts
 * settlingDigests([]); // []
 * ```
 */
export function settlingDigests(records: readonly LedgerRecord[]): string[] {
  return [
    ...new Set(
      afterNewestExpired(records).live.flatMap((r) =>
        r.kind === "approval" ? [r.planDigest] : []
      ),
    ),
  ];
}

/**
 * The revoke that settles a gate, as a store writes it.
 * @param gate The spec's `name` and the gate.
 * @param cut What {@linkcode spentCut} found.
 * @param id The record's id.
 * @returns The `expired` record, dated `cut.at`.
 * @example
 * ```ts
 * cutRevoke({ name: "tf", gate: "tf-wave-1" }, { approvals: ["a1"], at: 0 }, id);
 * ```
 */
export function cutRevoke(
  gate: { name: string; gate: string },
  cut: SpentCut,
  id: string,
): ExpiredRecord {
  return expiredRecord({
    name: gate.name,
    gate: gate.gate,
    by: SETTLED_BY,
    note: SETTLED_NOTE,
    approvals: cut.approvals,
    actionsThrough: cut.actionsThrough,
  }, { id, now: cut.at });
}

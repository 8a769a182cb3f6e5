/**
 * Why a gate waits (SPEC.md §5.3, §10, §12.1): the tally of who counted and who
 * did not, or, when no approval covers the plans, the approval of another
 * digest, the plans it does not cover, a revoke, or none. Pure; the decision
 * itself is `decideGate`'s.
 * @module
 */

import { claimLedger } from "./claims.ts";
import { afterNewestExpired, revokeFloor } from "./revoke_floor.ts";
import {
  covers,
  type GateMember,
  needing,
  type PlanSets,
  uncovered,
} from "./_coverage.ts";
import {
  approvedForAnotherMessage,
  isSettleRevoke,
  noApprovalMessage,
  revokedMessage,
  settledMessage,
  settledNote,
  uncoveredMessage,
} from "./gate_messages.ts";
import { type GateRules, type Tally, tallyApprovals } from "./gate_tally.ts";
import type { ApprovalRecord, LedgerRecord } from "./records.ts";

/** What a waiting gate was evaluated for. */
export interface WaitingQuery {
  /** The gate, for messages. */
  gate: string;
  /** The decision's set digest. */
  digest: string;
  /** The decision's members. */
  members: readonly GateMember[];
  /** The approver rules and verdicts, if any. */
  rules?: GateRules;
}

/**
 * The tally of a waiting gate: the approvals that cover the plans not yet
 * applied under the newest approval; `undefined` when none covers them.
 */
export function waitingTally(
  records: readonly LedgerRecord[],
  oldestFirst: readonly ApprovalRecord[],
  sets: PlanSets,
  query: WaitingQuery,
): Tally | undefined {
  const newest = oldestFirst[oldestFirst.length - 1];
  if (newest === undefined) return undefined;
  const need = needing(query.members, claimLedger(records, newest.id));
  const covering = oldestFirst.filter((a) =>
    covers(a, sets, need, query.digest)
  );
  return covering.length
    ? tallyApprovals(covering, query.rules, query.digest)
    : undefined;
}

const NAMED = 5;

/**
 * Why no approval covers the plans: none (or one revoked), one of another
 * digest, or the plans the newest does not cover (five named at most).
 */
export function waitingReasons(
  records: readonly LedgerRecord[],
  newest: ApprovalRecord | undefined,
  sets: PlanSets,
  query: WaitingQuery,
): string[] {
  const { gate, digest } = query;
  if (newest === undefined) {
    const { expired } = afterNewestExpired(records);
    // Ended by it: before it, or sealed before a revoke was written.
    const at = expired && records.indexOf(expired);
    const revokedAt = revokeFloor(records).at;
    const i = expired === undefined
      ? -1
      : records.findLastIndex((r, j) =>
        r.kind === "approval" && r.planDigest === digest &&
        (j < at! || (r.seal !== undefined &&
          Date.parse(r.timestamp) <= revokedAt))
      );
    if (i < 0) {
      return isSettleRevoke(expired)
        ? [noApprovalMessage(gate, digest), settledNote(expired!.timestamp)]
        : [noApprovalMessage(gate, digest)];
    }
    const revoked = records[i] as ApprovalRecord;
    // Ended in place by the first revoke after it, or in time by the latest.
    const after = records.find((r, j) => j > i && r.kind === "expired");
    const when = i < at! && after
      ? after.timestamp
      : new Date(revokedAt).toISOString();
    return [
      (isSettleRevoke(after) ? settledMessage : revokedMessage)(
        digest,
        revoked.by,
        when,
      ),
    ];
  }
  const claims = claimLedger(records, newest.id);
  const missing = uncovered(
    newest,
    sets,
    needing(query.members, claims),
    digest,
  );
  if (missing === "another-digest") {
    return [
      approvedForAnotherMessage(gate, newest.planDigest, newest.by, digest),
    ];
  }
  const set = new Map(
    (sets.get(newest.planDigest) ?? []).map((p) => [p.target, p.planDigest]),
  );
  const lines = missing.slice(0, NAMED).map((m) =>
    uncoveredMessage(m, set.get(m.target), newest)
  );
  if (missing.length > NAMED) {
    lines.push(`and ${missing.length - NAMED} more plans it does not cover`);
  }
  return [
    approvedForAnotherMessage(gate, newest.planDigest, newest.by, digest),
    ...lines,
  ];
}

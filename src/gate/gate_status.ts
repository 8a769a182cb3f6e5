/**
 * A gate's standing for `chant-wave status` (SPEC.md §2, §10): the standing pending
 * fact, the approvals that still count and, per approval, where the plans it
 * covers stand (applied, failed, unsettled, left), the last revoke, and the
 * last settle after it (a revoke chant-wave wrote, not a person). Pure:
 * records and plan sets in, summary out.
 * @module
 */

import { claimLedgers } from "./claims.ts";
import { decideGate, newestPending, type PlanSets } from "./decide_gate.ts";
import type { LedgerRecord, PendingRecord } from "./records.ts";
import { countingApprovals } from "./revoke_floor.ts";
import { isSettleRevoke } from "./gate_messages.ts";

/** How the plans an approval covers stand under it. */
export interface PlanCounts {
  /** Applied successfully: they never apply again under it. */
  applied: number;
  /** Their last attempt failed: a job may retry them. */
  failed: number;
  /** Claimed with no outcome (applying now, or the job died). */
  unsettled: number;
  /** Not claimed yet. */
  left: number;
}

/** An approval that counts. */
export interface ApprovalStatus {
  id: string;
  planDigest: string;
  by: string;
  timestamp: string;
  /** Where its plans stand; absent when it covers its digest as a whole (no plan set). */
  plans?: PlanCounts;
  /** The decisions that applied plans under it. */
  appliedBy: string[];
}

/** What stands at a gate. */
export interface GateStatus {
  /**
   * The newest unexpired pending fact after the last revoke, while it still
   * waits: absent once an approval covers its plans.
   */
  pending?: Pick<
    PendingRecord,
    "planDigest" | "timestamp" | "expiresAt" | "members"
  >;
  /** The counting approvals, oldest first. */
  approvals: ApprovalStatus[];
  /** When the gate was last revoked by a person (`chant-wave revoke`). */
  revokedAt?: string;
  /**
   * When the gate was last settled, after that: a revoke chant-wave wrote
   * because every approval before it was spent (its plans applied).
   */
  settledAt?: string;
}

/**
 * Summarises a gate's records as of `now`.
 * @param records The gate's records in ledger order.
 * @param sets The plan sets of the approved digests and of the pending one.
 * @param now Milliseconds since the Unix epoch.
 * @returns The summary.
 * @example
 * ```ts
 * gateStatus([], new Map(), Date.now()); // { approvals: [] }
 * ```
 */
export function gateStatus(
  records: readonly LedgerRecord[],
  sets: PlanSets,
  now: number,
): GateStatus {
  const revoke = records.findLast((r) =>
    r.kind === "expired" && !isSettleRevoke(r)
  );
  const settle = records.findLast((r, i) =>
    isSettleRevoke(r) && (revoke === undefined || i > records.indexOf(revoke))
  );
  const revokedAt = revoke?.timestamp;
  const settledAt = settle?.timestamp;
  const claimsOf = claimLedgers(records);
  const approvals = countingApprovals(records).reverse().map((approval) => {
    const claims = claimsOf(approval.id);
    const set = sets.get(approval.planDigest);
    const appliedBy = new Set<string>();
    let plans: PlanCounts | undefined;
    if (set) {
      plans = { applied: 0, failed: 0, unsettled: 0, left: 0 };
      for (const pair of set) {
        const standing = claims.standing(pair);
        if (standing.kind === "applied") appliedBy.add(standing.decisionId);
        plans[standing.kind]++;
      }
    }
    for (const record of records) {
      if (
        record.kind === "run-outcome" && record.approvalId === approval.id &&
        record.runs.some((run) => run.outcome === "ok")
      ) appliedBy.add(record.decisionId);
    }
    const { id, planDigest, by, timestamp } = approval;
    return {
      id,
      planDigest,
      by,
      timestamp,
      ...(plans ? { plans } : {}),
      appliedBy: [...appliedBy],
    };
  });
  const newest = newestPending(records, now);
  const pending = newest && stillWaits(records, sets, newest, now)
    ? newest
    : undefined;
  return {
    ...(pending
      ? {
        pending: {
          planDigest: pending.planDigest,
          timestamp: pending.timestamp,
          expiresAt: pending.expiresAt,
          members: pending.members,
        },
      }
      : {}),
    approvals,
    ...(revokedAt ? { revokedAt } : {}),
    ...(settledAt ? { settledAt } : {}),
  };
}

/**
 * Whether no counting approval covers a pending fact's plans yet: decided as a
 * job would decide them (SPEC.md §10) when its plan set is known, else by an
 * approval of exactly its digest.
 */
function stillWaits(
  records: readonly LedgerRecord[],
  sets: PlanSets,
  pending: PendingRecord,
  now: number,
): boolean {
  const set = sets.get(pending.planDigest);
  if (set === undefined) {
    return !countingApprovals(records).some((approval) =>
      approval.planDigest === pending.planDigest
    );
  }
  return decideGate(records, sets, {
    gate: pending.gate,
    digest: pending.planDigest,
    members: set,
    now,
  }).status === "waiting";
}

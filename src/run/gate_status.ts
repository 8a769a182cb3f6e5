/**
 * A gate's standing for `chant-wave status` (SPEC.md §2): the standing pending fact,
 * the approvals that still count and whether each was spent, and the last revoke.
 * Pure: records in, summary out.
 * @module
 */

import { newestPending } from "../ledger/decide_gate.ts";
import type { LedgerRecord, PendingRecord } from "../ledger/records.ts";

/** An approval after the last revoke. */
export interface ApprovalStatus {
  id: string;
  planDigest: string;
  by: string;
  timestamp: string;
  /** The decisions that applied under it; the first one spent it. */
  appliedBy: string[];
}

/** What stands at a gate. */
export interface GateStatus {
  /** The newest unexpired pending fact after the last revoke. */
  pending?: Pick<
    PendingRecord,
    "planDigest" | "timestamp" | "expiresAt" | "members"
  >;
  approvals: ApprovalStatus[];
  /** When the gate was last revoked. */
  revokedAt?: string;
}

/**
 * Summarises a gate's records, oldest first, as of `now`.
 * @param records The gate's records in ledger order.
 * @param now Milliseconds since the Unix epoch.
 * @returns The summary.
 * @example
 * ```ts
 * gateStatus([], Date.now()); // { approvals: [] }
 * ```
 */
export function gateStatus(
  records: readonly LedgerRecord[],
  now: number,
): GateStatus {
  let start = 0;
  let revokedAt: string | undefined;
  records.forEach((record, i) => {
    if (record.kind === "expired") {
      [start, revokedAt] = [i + 1, record.timestamp];
    }
  });
  const approvals: ApprovalStatus[] = [];
  for (const record of records.slice(start)) {
    if (record.kind !== "approval") continue;
    const appliedBy = records
      .filter((r) => r.kind === "applied" && r.approvalId === record.id)
      .map((r) => (r as { decisionId: string }).decisionId);
    const { id, planDigest, by, timestamp } = record;
    approvals.push({
      id,
      planDigest,
      by,
      timestamp,
      appliedBy: [...new Set(appliedBy)],
    });
  }
  const pending = newestPending(records, now);
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
  };
}

/**
 * Whether a waiting gate's CI job should be restarted (SPEC.md §13 `resume`),
 * pure: the gate's standing pending fact, whether a counting approval now covers
 * the plans it waits on (`decideGate` with the pending fact's plan set as the
 * members), whether the job left a run locator, and whether the wave already ran
 * under the approval. Asking the forge is the caller's; this approves nothing.
 * @module
 */

import {
  decideGate,
  newestPending,
  type PlanSets,
} from "../gate/decide_gate.ts";
import type { GateRules } from "../gate/gate_tally.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import type {
  ApprovalRecord,
  LedgerRecord,
  PendingRecord,
  PlanPair,
} from "../gate/records.ts";

/** What to do about one gate. */
export type ResumeStep =
  /** No approval covers the plans the gate waits on. */
  | { status: "not-approved"; pending: PendingRecord; reason: string }
  /** Approved, but there is nothing to restart or no need to. */
  | {
    status: "no-job" | "skipped";
    pending: PendingRecord;
    approval: ApprovalRecord;
    reason: string;
  }
  /** Approved: restart the job the locator names. */
  | {
    status: "restart";
    pending: PendingRecord;
    approval: ApprovalRecord;
    locator: RunLocator;
  };

/** What the decision is made from. */
export interface ResumeQuery {
  /** The gate, for messages. */
  gate: string;
  /** The gate's records, oldest first (ledger order). */
  records: readonly LedgerRecord[];
  /** The plan sets of the counting approvals' digests. */
  sets: PlanSets;
  /**
   * The plan set of the standing pending fact's digest; without one, the
   * pending fact counts as approved only by an approval of exactly its digest.
   */
  pendingSet?: readonly PlanPair[];
  /** The clock's time, milliseconds since the Unix epoch. */
  now: number;
  /**
   * The approvals judged under the rules at the waiting job's base (SPEC.md
   * §12, §12.1); without them any one approval counts.
   */
  rules?: GateRules;
}

/** Records a job of the gate writes once it goes on under an approval. */
const RAN = new Set(["claim", "run-outcome", "wave-outcome"]);

/**
 * Decides what `resume` does about one gate: nothing when no pending fact
 * stands; `not-approved` when no counting approval covers its plan set;
 * `no-job` when the fact carries no run locator (it was recorded outside CI, or
 * its locator was malformed); `skipped` when a job of the gate already ran
 * after the approval (it claimed, applied or finished the wave), so restarting
 * the old job again would only repeat it; else `restart`.
 * @param query The gate's records, plan sets and the time.
 * @returns The step, or `undefined` when no pending fact stands.
 * @example
 * ```ts
 * decideResume({ gate: "tf-wave-1", records: [], sets: new Map(), now: 0 }); // undefined
 * ```
 */
export function decideResume(query: ResumeQuery): ResumeStep | undefined {
  const { records, now } = query;
  const pending = newestPending(records, now);
  if (pending === undefined) return undefined;
  const members = query.pendingSet ??
    [{ target: "*", planDigest: pending.planDigest }];
  const decision = decideGate(records, query.sets, {
    gate: query.gate,
    digest: pending.planDigest,
    members,
    now,
    ...(query.rules ? { rules: query.rules } : {}),
  });
  if (decision.status === "waiting") {
    return { status: "not-approved", pending, reason: decision.reasons[0] };
  }
  const { approval } = decision;
  if (pending.locator === undefined) {
    return {
      status: "no-job",
      pending,
      approval,
      reason:
        "the pending fact names no CI job (recorded outside CI, or its run locator was dropped)",
    };
  }
  const since = records.slice(records.indexOf(approval) + 1)
    .find((record) => RAN.has(record.kind));
  if (since !== undefined) {
    return {
      status: "skipped",
      pending,
      approval,
      reason:
        `a job of the gate ran since the approval (${since.kind} at ${since.timestamp})`,
    };
  }
  return { status: "restart", pending, approval, locator: pending.locator };
}

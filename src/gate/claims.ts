/**
 * Claims under an approval (SPEC.md §10, §12.1), pure: where each plan stands
 * under one approval (never claimed, applied, failed so it may be claimed again
 * on its next attempt, or claimed with no outcome yet); of claims of one plan
 * and attempt the first in ledger order wins, and only the outcome of the
 * winning job attempt counts (same decision and `attemptId`, so a second job
 * holding the same decision record settles nothing). Which approvals were
 * already used for a plan: every approval before a claim of it that applied
 * or has no outcome (a claim names one approval, not every approver its tally
 * counted, so an approval may be taken for used when it was not, never the
 * other way round; a sealed one also when signed before the claim was
 * written). Whether every claim has its outcome (compaction folds only
 * settled claims), the refusal of a claim whose approval stopped counting,
 * and the split of a claim or outcome listing many plans into records within
 * the 64 KiB a reader accepts (§14).
 * @module
 */

import type {
  ClaimRecord,
  LedgerRecord,
  PlanPair,
  RunOutcomeRecord,
} from "./records.ts";
import { OutcomeError } from "../errors.ts";
import { WAITING } from "../exit_codes.ts";
import { isSettleRevoke } from "./gate_messages.ts";
import { afterNewestExpired, countingApprovals } from "./revoke_floor.ts";

/** A plan under an approval. */
export type RunStanding =
  /** Never claimed: its first attempt may be claimed. */
  | { kind: "left"; attempt: 1 }
  /** Applied successfully by `decisionId`: it never applies again under this approval. */
  | { kind: "applied"; decisionId: string }
  /** Its last attempt failed: attempt `attempt` may be claimed. */
  | { kind: "failed"; attempt: number }
  /**
   * Claimed by `decisionId`'s job attempt `attemptId` with no outcome yet
   * (applying now, or its job died).
   */
  | {
    kind: "unsettled";
    decisionId: string;
    attemptId?: string;
    attempt: number;
    claimId: string;
    claimedAt: string;
  };

/** The standings of every plan claimed under one approval. */
export interface ClaimLedger {
  /** The approval. */
  readonly approvalId: string;
  /**
   * Where a plan stands.
   * @param plan The target and plan digest.
   * @returns Its standing; `left` for a plan never claimed.
   */
  standing(plan: PlanPair): RunStanding;
  /**
   * The claims of a plan that used the approval (SPEC.md §12.1): the attempt
   * that applied it, and every attempt with no outcome yet.
   * @param plan The target and plan digest.
   * @returns The ids of those claim records; none for a plan never claimed or
   *   whose every attempt failed.
   */
  uses(plan: PlanPair): string[];
}

/**
 * The key of one plan: its target and digest.
 * @param plan The target and plan digest.
 * @returns A string unique to the pair.
 * @example
 * ```ts
 * planKey({ target: "eu", planDigest: d }); // "eu\n" + d
 * ```
 */
export function planKey(plan: PlanPair): string {
  return `${plan.target}\n${plan.planDigest}`;
}

interface Attempt {
  decisionId: string;
  attemptId?: string;
  claimId: string;
  claimedAt: string;
  outcome?: "ok" | "failed";
}

/**
 * Reads the claims and outcomes of one approval from a gate's records.
 * @param records The gate's records, oldest first (ledger order).
 * @param approvalId The approval.
 * @returns The standings.
 * @example
 * ```ts
 * claimLedger([], "a1").standing({ target: "eu", planDigest: d }); // { kind: "left", attempt: 1 }
 * ```
 */
export function claimLedger(
  records: readonly LedgerRecord[],
  approvalId: string,
): ClaimLedger {
  const attempts = new Map<string, Map<number, Attempt>>();
  for (const record of records) {
    if (record.kind === "claim" && record.approvalId === approvalId) {
      for (const run of record.runs) {
        const key = planKey(run);
        const byAttempt = attempts.get(key) ?? new Map<number, Attempt>();
        attempts.set(key, byAttempt);
        if (!byAttempt.has(run.attempt)) {
          byAttempt.set(run.attempt, {
            decisionId: record.decisionId,
            ...(record.attemptId ? { attemptId: record.attemptId } : {}),
            claimId: record.id,
            claimedAt: record.timestamp,
          });
        }
      }
    } else if (
      record.kind === "run-outcome" && record.approvalId === approvalId
    ) {
      for (const run of record.runs) {
        const won = attempts.get(planKey(run))?.get(run.attempt);
        if (
          won?.decisionId === record.decisionId &&
          won.attemptId === record.attemptId && won.outcome !== "ok"
        ) {
          won.outcome = run.outcome;
        }
      }
    }
  }
  return {
    approvalId,
    standing(plan) {
      const byAttempt = attempts.get(planKey(plan));
      if (byAttempt === undefined) return { kind: "left", attempt: 1 };
      for (const attempt of byAttempt.values()) {
        if (attempt.outcome === "ok") {
          return { kind: "applied", decisionId: attempt.decisionId };
        }
      }
      const last = Math.max(...byAttempt.keys());
      const attempt = byAttempt.get(last)!;
      if (attempt.outcome === "failed") {
        return { kind: "failed", attempt: last + 1 };
      }
      return {
        kind: "unsettled",
        decisionId: attempt.decisionId,
        ...(attempt.attemptId ? { attemptId: attempt.attemptId } : {}),
        attempt: last,
        claimId: attempt.claimId,
        claimedAt: attempt.claimedAt,
      };
    },
    uses(plan) {
      const byAttempt = attempts.get(planKey(plan));
      if (byAttempt === undefined) return [];
      return [...byAttempt.values()]
        .filter((attempt) => attempt.outcome !== "failed")
        .map((attempt) => attempt.claimId);
    },
  };
}

/**
 * The claim ledgers of every approval of a gate, from one pass over its records:
 * each approval's claims and outcomes are set apart once, so asking for many
 * approvals does not read every record again for each.
 * @param records The gate's records, oldest first (ledger order).
 * @returns The standings under an approval, as {@linkcode claimLedger} gives them.
 * @example
 * ```ts
 * claimLedgers([])("a1").standing({ target: "eu", planDigest: d }); // { kind: "left", attempt: 1 }
 * ```
 */
export function claimLedgers(
  records: readonly LedgerRecord[],
): (approvalId: string) => ClaimLedger {
  const byApproval = claimsByApproval(records);
  const built = new Map<string, ClaimLedger>();
  return (approvalId) => {
    let ledger = built.get(approvalId);
    if (ledger === undefined) {
      ledger = claimLedger(byApproval.get(approvalId) ?? [], approvalId);
      built.set(approvalId, ledger);
    }
    return ledger;
  };
}

/**
 * Whether every plan and attempt claimed under one approval has the outcome of
 * the claim that won it (the first), and every outcome a claim before it: as
 * `claimLedger` reads them.
 * @param own The claims and run outcomes under one approval, in ledger order.
 * @returns `false` when a claim still waits for its outcome.
 * @example
 * ```ts
 * allSettled([]); // true
 * ```
 */
export function allSettled(own: readonly LedgerRecord[]): boolean {
  const won = new Map<string, { record: LedgerRecord; done: boolean }>();
  for (const record of own) {
    if (record.kind !== "claim" && record.kind !== "run-outcome") continue;
    for (const run of record.runs) {
      const key = `${planKey(run)}\n${run.attempt}`;
      const winner = won.get(key);
      if (record.kind === "claim") {
        if (!winner) won.set(key, { record, done: false });
        continue;
      }
      if (winner === undefined) return false;
      const claim = winner.record as typeof record;
      if (
        claim.decisionId === record.decisionId &&
        claim.attemptId === record.attemptId
      ) winner.done = true;
    }
  }
  return [...won.values()].every((winner) => winner.done);
}

/**
 * The claims and run outcomes of `records`, by the approval each names.
 * @param records A gate's records in ledger order.
 * @returns Approval id → its claims and outcomes, in ledger order.
 * @example
 * ```ts
 * claimsByApproval([]).size; // 0
 * ```
 */
export function claimsByApproval(
  records: readonly LedgerRecord[],
): Map<string, LedgerRecord[]> {
  const byApproval = new Map<string, LedgerRecord[]>();
  for (const record of records) {
    if (record.kind !== "claim" && record.kind !== "run-outcome") continue;
    const own = byApproval.get(record.approvalId);
    if (own) own.push(record);
    else byApproval.set(record.approvalId, [record]);
  }
  return byApproval;
}

/**
 * Refuses a claim whose approval no longer counts when read back (SPEC.md §10:
 * `revoke` stops all of it): a revoke came after the approval, or the approval
 * is no longer at the tip at all (compaction folds only approvals a revoke
 * ended). The job read the gate approved before the revoke; its claim stays
 * recorded, unsettled, and nothing applies under it.
 * @param records The gate's records as read after the claim.
 * @param claim The claim.
 * @throws {OutcomeError} Exit 3: `cannot apply under approval <id>: gate "<gate>"
 *   was revoked after this job read it; nothing applied` (`was settled …`
 *   when the newest revoke settled the gate).
 */
export function refuseIfRevoked(
  records: readonly LedgerRecord[],
  claim: ClaimRecord,
): void {
  const counts = countingApprovals(records)
    .some((approval) => approval.id === claim.approvalId);
  if (counts) return;
  const what = isSettleRevoke(afterNewestExpired(records).expired)
    ? "was settled after this job read it (other jobs applied what its " +
      "approvals covered)"
    : "was revoked after this job read it";
  throw new OutcomeError(
    WAITING,
    `cannot apply under approval ${claim.approvalId}: gate "${claim.gate}" ` +
      `${what}; nothing applied`,
  );
}

/** The first of some plans an approval was already used for, if any. */
export type UsedFor = <P extends PlanPair>(
  approvalId: string,
  plans: readonly P[],
) => P | undefined;

/**
 * Finds the approvals used for each plan.
 * @param records The gate's records, oldest first (ledger order).
 * @param claimsOf The claim ledger of each approval (`claimLedgers(records)`).
 * @returns The first of some plans an approval was already used for.
 * @example
 * ```ts
 * usedApprovals([], claimLedgers([]))("a1", [{ target: "eu", planDigest: d }]); // undefined
 * ```
 */
export function usedApprovals(
  records: readonly LedgerRecord[],
  claimsOf: (approvalId: string) => ClaimLedger,
): UsedFor {
  const position = new Map<string, number>();
  const written = new Map<string, number>();
  const signed = new Map<string, number>();
  const claimedUnder = new Set<string>();
  let lastClaim = -1;
  let lastClaimTime = -Infinity;
  records.forEach((record, at) => {
    // A repeated id stands at its last place: more approvals count as used.
    if (record.kind === "claim" || record.kind === "approval") {
      position.set(record.id, at);
    }
    if (record.kind === "approval" && record.seal !== undefined) {
      signed.set(record.id, Date.parse(record.timestamp));
    }
    if (record.kind === "claim") {
      const time = Date.parse(record.timestamp);
      claimedUnder.add(record.approvalId);
      written.set(record.id, Math.max(written.get(record.id) ?? time, time));
      lastClaim = at;
      lastClaimTime = Math.max(lastClaimTime, time);
    }
  });
  if (claimedUnder.size === 0) return () => undefined;
  const lastUse = new Map<string, { at: number; time: number }>();
  const lastUseOf = (plan: PlanPair) => {
    const key = planKey(plan);
    let last = lastUse.get(key);
    if (last === undefined) {
      last = { at: -1, time: -Infinity };
      for (const approvalId of claimedUnder) {
        for (const claimId of claimsOf(approvalId).uses(plan)) {
          last.at = Math.max(last.at, position.get(claimId) ?? -1);
          last.time = Math.max(last.time, written.get(claimId) ?? -Infinity);
        }
      }
      lastUse.set(key, last);
    }
    return last;
  };
  return (approvalId, plans) => {
    const at = position.get(approvalId) ?? Infinity;
    const time = signed.get(approvalId) ?? Infinity;
    // One after every claim (in place and, when sealed, in time) was used for
    // nothing.
    if (at > lastClaim && time > lastClaimTime) return undefined;
    return plans.find((plan) => {
      const last = lastUseOf(plan);
      return at < last.at || time <= last.time;
    });
  };
}

/** The most bytes one chunk's runs take, leaving room for the other fields. */
const CHUNK_BYTES = 48 * 1024;

/**
 * Splits `record` into records of at most ~48 KiB of runs each; the chunks' ids
 * are the record's id with `-<n>` added when there is more than one.
 * @param record A claim or run-outcome record.
 * @returns One record, or several that together list every run in order.
 * @example
 * ```ts
 * chunkRuns({ ...claim, runs: [] }).length; // 1
 * ```
 */
export function chunkRuns<R extends ClaimRecord | RunOutcomeRecord>(
  record: R,
): R[] {
  const chunks: R["runs"][] = [[]];
  let bytes = 0;
  for (const run of record.runs) {
    const size = JSON.stringify(run).length + 8;
    if (bytes + size > CHUNK_BYTES && chunks[chunks.length - 1].length > 0) {
      chunks.push([]);
      bytes = 0;
    }
    (chunks[chunks.length - 1] as unknown[]).push(run);
    bytes += size;
  }
  if (chunks.length === 1) return [record];
  return chunks.map((runs, i) => ({
    ...record,
    id: `${record.id}-${i}`,
    runs,
  }));
}

/**
 * The rules part of `chant-wave status` (SPEC.md §12, §12.1): for a gate whose
 * pending fact stands, the rules its job met at base, the tally of who counts
 * for its plans and each approval's verdict (the verified signer of a sealed
 * one). An edge over git and the ledger; the decision is `decideGate`'s.
 * @module
 */

import { decideGate, type PlanSets } from "../ledger/decide_gate.ts";
import type { ApprovalVerdict } from "../ledger/gate_tally.ts";
import type { LedgerRecord, PendingRecord } from "../ledger/records.ts";
import type { ApprovalMode } from "../spec/types.ts";
import { pendingRules, type PendingRulesIo } from "./_pending_rules.ts";

/** The rules at base, as status shows them. */
export interface RulesStatus {
  /** The base commit (full sha). */
  base: string;
  mode: ApprovalMode;
  /** The signers files a seal must verify against. */
  signers: string[];
  required: number;
  /** Each list must allow an approver; empty: anyone. */
  allowed: string[][];
  selfApproval: boolean;
  /** Which base waves governed. */
  reason: string;
}

/** Who counts for the pending plans. */
export interface TallyStatus {
  /** The pending digest. */
  digest: string;
  /** Whether enough distinct principals approved its plans. */
  approved: boolean;
  required: number;
  /** The principals that count, once each. */
  counted: string[];
  /** Approvals of its plans that do not count, and why. */
  refused: { principal: string; why: string }[];
}

/** What status knows about a gate's rules. */
export interface GateRulesStatus {
  rules?: RulesStatus;
  tally?: TallyStatus;
  /** Each approval's verdict under the rules, by id. */
  verdicts?: ReadonlyMap<string, ApprovalVerdict>;
  /** Why the rules could not be read here. */
  unread?: string;
}

/**
 * Reads the rules of a gate's standing pending fact and tallies its approvals.
 * @param pending The standing pending fact, if any.
 * @param records The gate's records, oldest first.
 * @param sets The plan sets of the counting approvals' digests.
 * @param io Git, the working directory, the clock and the ledger.
 * @returns Nothing without a pending fact; the rules, the tally and the
 *   verdicts; or why the rules could not be read.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function statusRules(
  pending: PendingRecord | undefined,
  records: readonly LedgerRecord[],
  sets: PlanSets,
  io: PendingRulesIo,
): Promise<GateRulesStatus> {
  if (pending === undefined) return {};
  const read = await pendingRules(pending, undefined, io);
  if (read.status === "unread") return { unread: read.why };
  const { rules: atBase } = read.judge;
  const rules: RulesStatus = {
    base: read.base,
    mode: atBase.mode,
    signers: atBase.signers.map((ref) => ref.path),
    required: atBase.required,
    allowed: atBase.allowed,
    selfApproval: atBase.selfApproval,
    reason: atBase.reason,
  };
  const judged = await read.judge.judge(records, pending.planDigest);
  if (read.set.length === 0) return { rules, verdicts: judged.verdicts };
  const withSet = new Map(sets);
  withSet.set(pending.planDigest, read.set);
  const gate = decideGate(records, withSet, {
    gate: pending.gate,
    digest: pending.planDigest,
    members: read.set,
    now: io.clock.now(),
    rules: judged,
  });
  const tally = gate.tally ??
    { required: judged.required, counted: [], refused: [] };
  return {
    rules,
    verdicts: judged.verdicts,
    tally: {
      digest: pending.planDigest,
      approved: gate.status === "approved",
      required: tally.required,
      counted: tally.counted,
      refused: tally.refused.map((r) => ({ principal: r.display, why: r.why })),
    },
  };
}

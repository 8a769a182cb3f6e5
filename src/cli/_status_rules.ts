/**
 * The rules part of `chant-wave status` (SPEC.md §12, §12.1): for a gate whose
 * pending fact stands, the rules its job met at base, the tally of who counts
 * for its plans and each approval's verdict (the verified signer of a sealed
 * one), and the lines that show them. An edge over git and the ledger; the
 * decision is `decideGate`'s.
 * @module
 */

import {
  describeApprovers,
  describeMode,
  describeTrust,
} from "../gate/approval_at_base.ts";
import type { PlanSets } from "../gate/decide_gate.ts";
import { type ApprovalVerdict, tallyLine } from "../gate/gate_tally.ts";
import type { LedgerRecord, PendingRecord } from "../gate/records.ts";
import { shortDigest } from "../gate/describe_record.ts";
import type { ApprovalStatus } from "../gate/gate_status.ts";
import { summariseSeal } from "../seal/seal_summary.ts";
import type { ApprovalMode } from "../spec/types.ts";
import { decidePending, type PendingRulesIo } from "../base/pending_rules.ts";

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

/** An approval as status shows it: its seal, and whether it counts. */
export interface ApprovalLine extends ApprovalStatus {
  /** The seal's principal and key fingerprint; `verified` under the rules at base. */
  seal?: { principal: string; fingerprint: string; verified: boolean };
  /** Whether it counts under the rules at base (when they could be read). */
  counts?: boolean;
  /** Why it does not count. */
  why?: string;
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
 * The rules of a gate's standing pending fact, the tally of its approvals and
 * each approval's verdict, as its waiting job would judge them
 * (`decidePending`).
 * @param pending The standing pending fact, if any.
 * @param records The gate's records, oldest first.
 * @param sets The plan sets of the counting approvals' digests.
 * @param io Git, the working directory, the clock, the ledger and the parser.
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
  const read = await decidePending(pending, records, sets, io);
  if (read.status === "unread") return { unread: read.why };
  const { rules: atBase, judged, decision } = read;
  const rules: RulesStatus = {
    base: read.base,
    mode: atBase.mode,
    signers: atBase.signers.map((ref) => ref.path),
    required: atBase.required,
    allowed: atBase.allowed,
    selfApproval: atBase.selfApproval,
    reason: atBase.reason,
  };
  if (read.set.length === 0) return { rules, verdicts: judged.verdicts };
  const tally = decision.tally ??
    { required: judged.required, counted: [], refused: [] };
  return {
    rules,
    verdicts: judged.verdicts,
    tally: {
      digest: pending.planDigest,
      approved: decision.status === "approved",
      required: tally.required,
      counted: tally.counted,
      refused: tally.refused.map((r) => ({ principal: r.display, why: r.why })),
    },
  };
}

/**
 * Adds each approval's seal and verdict under the rules at base: `sealed by`
 * for a seal verified there, `signed, not verified here` for one that was not.
 * @param approvals The gate's counting approvals as `gateStatus` lists them.
 * @param records The gate's records (for the seals).
 * @param rules What `statusRules` read.
 * @returns The approvals with their seals and verdicts.
 * @throws {Error} Only when WebCrypto lacks SHA-256 (a bug of the build).
 */
export async function approvalLines(
  approvals: readonly ApprovalStatus[],
  records: readonly LedgerRecord[],
  rules: GateRulesStatus,
): Promise<ApprovalLine[]> {
  const lines: ApprovalLine[] = [];
  for (const approval of approvals) {
    const record = records.find((r) => r.id === approval.id);
    const stored = record?.kind === "approval" ? record.seal : undefined;
    const verdict = rules.verdicts?.get(approval.id);
    const seal = verdict?.sealedBy
      ? { ...verdict.sealedBy, verified: true }
      : stored
      ? { ...await summariseSeal(stored), verified: false }
      : undefined;
    lines.push({
      ...approval,
      ...(seal ? { seal } : {}),
      ...(verdict ? { counts: verdict.counts } : {}),
      ...(verdict?.why ? { why: verdict.why } : {}),
    });
  }
  return lines;
}

/**
 * The rules line: the mode (a ledger gate's approvers are whoever `--by`
 * names, SPEC.md §12.1), the approver rules, and where they were read.
 * @param rules The rules at base.
 * @returns `sealed by <path>, 2 distinct approvers, … (read at …)`.
 */
export function describeRules(rules: RulesStatus): string {
  const mode = describeMode({
    mode: rules.mode,
    signers: rules.signers.map((path) => ({ sha: rules.base, path })),
  });
  return `${mode}, ${describeApprovers(rules)} (${rules.reason}); ${
    describeTrust(rules.mode)
  }`;
}

/**
 * The tally line of status, its digest shortened as status shortens them.
 * @param tally The tally of the pending plans.
 * @returns `1 of 2 approvals of sha256:<12 hex>: ann; not counted: eve (…)`,
 *   with ` (approved)` once enough count.
 */
export function describeTally(tally: TallyStatus): string {
  const line = tallyLine(
    {
      required: tally.required,
      counted: tally.counted,
      refused: tally.refused.map((r) => ({ display: r.principal, why: r.why })),
    },
    shortDigest(tally.digest),
  );
  return tally.approved ? `${line} (approved)` : line;
}

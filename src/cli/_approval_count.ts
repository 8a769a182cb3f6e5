/**
 * How a gate's approvals count for the approve command (SPEC.md §12.1,
 * §13.1), judged as the waiting job would under the rules at its base (the
 * newest pending fact of the digest that names its spec): whether the
 * approver has an approval that counts already (then nothing new is
 * recorded), and once the approval is recorded the advice printed (a warning
 * when it will not count, what a forge gate's job confirms) and the tally (so
 * a click that is one of several says that the wave waits for another
 * approver, and GitLab's approve job passes only once its approval counts).
 * The answers are advice: the runner decides for itself.
 * @module
 */

import { describeApprovers, describeMode } from "../gate/approval_at_base.ts";
import type {
  ApprovalConfirmer,
  Confirmation,
} from "../gate/confirm_approvals.ts";
import { type Tally, tallyLine } from "../gate/gate_tally.ts";
import type {
  ApprovalRecord,
  LedgerRecord,
  PendingRecord,
} from "../gate/records.ts";
import {
  decidePending,
  type PendingDecision,
  type PendingRulesIo,
} from "../base/pending_rules.ts";
import { normalisePrincipal } from "../seal/seal.ts";

/** The gate as the waiting job would decide it, when its rules could be read here. */
export type ApprovalCount =
  | { status: "judged"; pending: PendingDecision }
  /** No pending fact of the digest names its spec: nothing to judge by. */
  | { status: "none" }
  /** The rules could not be read here: why. */
  | { status: "unread"; why: string };

/**
 * Decides the gate's plans of `digest` from `records` as the waiting job would.
 * @param digest The digest approved.
 * @param records The gate's records, oldest first (with the new approval, once recorded).
 * @param io Git, the working directory, the clock, the ledger, the parser.
 * @param confirmer Confirms a forge gate's unsigned approvals here.
 * @returns The decision under the rules at base, or why there is none.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function countApprovals(
  digest: string,
  records: readonly LedgerRecord[],
  io: PendingRulesIo,
  confirmer?: ApprovalConfirmer,
): Promise<ApprovalCount> {
  const pending = records.filter((r): r is PendingRecord =>
    r.kind === "pending" && r.planDigest === digest && r.spec !== undefined
  ).pop();
  if (pending === undefined) return { status: "none" };
  const read = await decidePending(pending, records, new Map(), io, confirmer);
  if (read.status === "unread") return read;
  return { status: "judged", pending: read };
}

/**
 * The approval of `by` that counts already for the plans, if any: `by` is
 * among the approvers the gate counts (distinct, fresh), and this is their
 * newest approval whose verdict counts.
 * @param by Who approves now.
 * @param digest The digest approved (their approval of it is named first).
 * @param count The gate before the new approval.
 * @param records The gate's records, oldest first.
 * @param duringFreeze The new one is given with `--during-freeze`: theirs
 *   stands only when it was too.
 * @returns The approval and the tally, or `undefined`.
 */
export function standingApproval(
  by: string,
  digest: string,
  count: ApprovalCount,
  records: readonly LedgerRecord[],
  duringFreeze?: true,
): { approval: ApprovalRecord; tally: Tally } | undefined {
  if (count.status !== "judged") return undefined;
  const { decision, judged } = count.pending;
  const tally = decision.tally;
  const who = normalisePrincipal(by);
  if (
    tally === undefined ||
    !tally.counted.some((name) => normalisePrincipal(name) === who)
  ) {
    return undefined;
  }
  // A forge login counts as `login:<name>`, one person with `<name>`.
  const mine = records.filter((r): r is ApprovalRecord => {
    if (r.kind !== "approval") return false;
    const verdict = judged.verdicts.get(r.id);
    return verdict?.counts === true &&
      [verdict.principal, verdict.identity].some((p) =>
        p === who || p === `login:${who}`
      );
  });
  const approval = mine.filter((a) => a.planDigest === digest).pop() ??
    mine.pop();
  // One given during a freeze is a new approval unless theirs was too.
  if (duringFreeze && approval?.duringFreeze !== true) return undefined;
  return approval === undefined ? undefined : { approval, tally };
}

/**
 * The lines the approve command prints after recording `approval`: a warning
 * when it will not count, else on a forge gate which action the gate's job
 * must confirm; a note when the rules could not be read here.
 * @param approval The approval just recorded.
 * @param count The gate with it.
 * @returns The lines (none when nothing waits for the digest).
 */
export function adviceLines(
  approval: ApprovalRecord,
  count: ApprovalCount,
): string[] {
  if (count.status === "none") return [];
  if (count.status === "unread") {
    return [`note: not checked against the rules at base: ${count.why}`];
  }
  const { rules, judged, base } = count.pending;
  const verdict = judged.verdicts.get(approval.id);
  if (verdict && !verdict.counts) {
    return [
      `warning: this approval will not count: ${verdict.why} (the rules at ${
        base.slice(0, 12)
      }: ${describeMode(rules)}, ${describeApprovers(rules)})`,
    ];
  }
  return rules.mode === "forge" && approval.via !== undefined &&
      approval.seal === undefined
    ? [
      `note: the gate's CI job counts it once the forge confirms ${approval.via}`,
    ]
    : [];
}

/**
 * How many distinct approvals count, of how many the rules require, and the
 * tally line, once the rules could be read.
 * @param count The gate.
 * @param digest The digest approved.
 * @returns The numbers and the line, or `undefined` without a judgment.
 */
export function countedOf(
  count: ApprovalCount,
  digest: string,
): { counted: number; required: number; line: string } | undefined {
  if (count.status !== "judged") return undefined;
  const { decision, rules } = count.pending;
  const tally = decision.tally ??
    { required: rules.required, counted: [], refused: [] };
  const counted = decision.status === "approved"
    ? Math.max(tally.counted.length, tally.required)
    : tally.counted.length;
  return { counted, required: tally.required, line: tallyLine(tally, digest) };
}

/**
 * A confirmer that asks its inner one about each approval once, so judging
 * the gate before and after the new approval asks the forge once per action.
 * @param inner The confirmer.
 * @returns The same answers, remembered by approval id.
 */
export function onceConfirmer(inner: ApprovalConfirmer): ApprovalConfirmer {
  const known = new Map<string, Confirmation>();
  return {
    async confirm(approvals, digest, ended) {
      const asked = approvals.filter((approval) => !known.has(approval.id));
      if (asked.length > 0) {
        const answers = await inner.confirm(asked, digest, ended);
        for (const [id, answer] of answers) known.set(id, answer);
      }
      const out = new Map<string, Confirmation>();
      for (const approval of approvals) {
        const answer = known.get(approval.id);
        if (answer !== undefined) out.set(approval.id, answer);
      }
      return out;
    },
  };
}

/**
 * What `chant-wave approve` tells the approver about the rules at base (SPEC.md
 * §12, §12.1): whether the approval just made will count, and if not why, under
 * the rules the waiting job met (`decidePending`). Advice only: the approval is
 * recorded anyway, and the runner decides for itself.
 * @module
 */

import { tallyLine } from "../gate/gate_tally.ts";
import type {
  ApprovalRecord,
  LedgerRecord,
  PendingRecord,
} from "../gate/records.ts";
import { describeApprovers, describeMode } from "../gate/approval_at_base.ts";
import type { ApprovalConfirmer } from "../gate/confirm_approvals.ts";
import { decidePending, type PendingRulesIo } from "../base/pending_rules.ts";

/**
 * Judges a new approval under the rules at the base its pending fact recorded.
 * Silent when no pending fact of its digest names a spec (the waiting job
 * predates this, or nothing waited).
 * @param approval The approval just recorded.
 * @param records The gate's records before it, oldest first.
 * @param io Git, the working directory, the clock and the ledger.
 * @param confirmer What a forge gate takes the approval for here (the approve
 *   command's provisional confirmer).
 * @returns Lines to print: a warning when it will not count (`warning: this
 *   approval will not count: <why> (the rules at <sha12>: …)`), else on a
 *   forge gate which forge action the gate's job must confirm, and the tally
 *   when several approvers are required; or a note when the rules could not
 *   be read here.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function adviseApproval(
  approval: ApprovalRecord,
  records: readonly LedgerRecord[],
  io: PendingRulesIo,
  confirmer?: ApprovalConfirmer,
): Promise<string[]> {
  const pending = records.filter((r): r is PendingRecord =>
    r.kind === "pending" && r.planDigest === approval.planDigest &&
    r.spec !== undefined
  ).pop();
  if (pending === undefined) return [];
  const all = [...records, approval];
  const read = await decidePending(pending, all, new Map(), io, confirmer);
  if (read.status === "unread") {
    return [`note: not checked against the rules at base: ${read.why}`];
  }
  const { rules: atBase, judged, decision } = read;
  const verdict = judged.verdicts.get(approval.id);
  if (verdict && !verdict.counts) {
    return [
      `warning: this approval will not count: ${verdict.why} (the rules at ${
        read.base.slice(0, 12)
      }: ${describeMode(atBase)}, ${describeApprovers(atBase)})`,
    ];
  }
  const lines = atBase.mode === "forge" && approval.via !== undefined &&
      approval.seal === undefined
    ? [
      `note: the gate's CI job counts it once the forge confirms ${approval.via}`,
    ]
    : [];
  if (atBase.required > 1 && read.set.length > 0 && decision.tally) {
    lines.push(`note: ${tallyLine(decision.tally, approval.planDigest)}`);
  }
  return lines;
}

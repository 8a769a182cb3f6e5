/**
 * The spend rule (SPEC.md §4.7, §5.4): before a job's first apply under an
 * approval, it claims the approval for its decision in the ledger; of decisions
 * racing for one approval exactly one wins, and every job of that decision may
 * apply under it.
 * @module
 */

import { decideGate } from "../ledger/decide_gate.ts";
import { spentMessage } from "../ledger/gate_messages.ts";
import { appliedRecord, newStamp } from "../ledger/records.ts";
import { ciContext } from "./ci_context.ts";
import type { Decision } from "./decision.ts";
import type { RunIo } from "./run_io.ts";

/** Whether the job may apply under the decision's approval. */
export type SpendOutcome =
  | { spent: true; approvalId: string; by: string }
  | { spent: false; reasons: string[] };

/**
 * Spends the approval of an `approved` decision for this job: checks that it still
 * counts (not revoked, not spent by another decision) and, unless this decision
 * already holds it, claims it through the ledger's atomic `claimApproval`. When
 * another decision's claim came first, this job must apply nothing.
 * @param decision An `approved` decision.
 * @param io The edges.
 * @returns `spent: true` when this decision holds the approval, else the reasons.
 */
export async function spendApproval(
  decision: Decision,
  io: RunIo,
): Promise<SpendOutcome> {
  const { name, gate, digest, decisionId } = decision;
  const { records } = await io.ledger.readGate(name, gate);
  const state = decideGate(records, {
    gate,
    digest,
    decisionId,
    now: io.clock.now(),
  });
  if (state.status === "waiting") {
    return { spent: false, reasons: state.reasons };
  }
  const { approval } = state;
  if (state.applied === undefined) {
    const runId = ciContext(io.env).runId;
    const first = await io.ledger.claimApproval(appliedRecord({
      name,
      gate,
      planDigest: digest,
      approvalId: approval.id,
      decisionId,
      ...(runId ? { runId } : {}),
    }, newStamp(io.clock)));
    if (first.decisionId !== decisionId) {
      return {
        spent: false,
        reasons: [spentMessage(digest, approval.by, first.decisionId)],
      };
    }
  }
  return { spent: true, approvalId: approval.id, by: approval.by };
}

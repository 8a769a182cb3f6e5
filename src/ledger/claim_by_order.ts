/**
 * Claiming in a ledger that orders records by the order they were recorded (the
 * git ledger's branch; SPEC.md §10): write the claim, read the gate again, and of
 * claims of one plan and attempt the first in that order wins; and, for every
 * ledger, no claim under an approval that no longer counts.
 * @module
 */

import { OutcomeError } from "../errors.ts";
import { WAITING } from "../exit_codes.ts";
import { chunkRuns } from "../gate/chunk_runs.ts";
import { type ClaimLedger, claimLedger } from "../gate/claims.ts";
import { countingApprovals } from "../gate/decide_gate.ts";
import { afterNewestExpired } from "../gate/_coverage.ts";
import { isSettleRevoke } from "../gate/gate_messages.ts";
import type { LedgerStore } from "./ledger_store.ts";
import type { ClaimRecord, LedgerRecord } from "../gate/records.ts";

/**
 * Records `claim` (in chunks of at most 64 KiB, written together) and reads back
 * where every plan of its approval stands.
 * @param store A store whose `readGate` returns records in the order written.
 * @param claim The job's claim.
 * @returns The standings after the claim.
 * @throws {OutcomeError} Exit 3 when the approval no longer counts (see
 *   {@linkcode refuseIfRevoked}).
 * @throws {Error} When the claim cannot be recorded.
 */
export async function claimByOrder(
  store: Pick<LedgerStore, "write" | "readGate">,
  claim: ClaimRecord,
): Promise<ClaimLedger> {
  await Promise.all(chunkRuns(claim).map((chunk) => store.write(chunk)));
  const { records } = await store.readGate(claim.name, claim.gate);
  refuseIfRevoked(records, claim);
  return claimLedger(records, claim.approvalId);
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

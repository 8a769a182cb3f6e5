/**
 * Claiming on the git ledger: as every ledger that orders records by arrival
 * (`claim_by_order.ts`), then the gate's history since the claim's approval
 * was numbered is checked (`_git_ledger_history.ts`), so an approval whose
 * claims were deleted or renumbered is not spent again. Private to the git
 * ledger.
 * @module
 */

import { posix } from "node:path";
import { checkApprovalHistory } from "./_git_ledger_history.ts";
import type { LedgerContext } from "./_git_ledger_sync.ts";
import { claimByOrder } from "./claim_by_order.ts";
import type { ClaimLedger } from "../gate/claims.ts";
import type { LedgerStore } from "./ledger_store.ts";
import type { ClaimRecord } from "../gate/records.ts";

/** What {@linkcode claimChecked} needs of the store. */
export interface ClaimingStore {
  /** Writes and reads the gate. */
  store: Pick<LedgerStore, "write" | "readGate">;
  /** Where the newest whole read of the gate found a record. */
  locate(
    name: string,
    gate: string,
    id: string,
  ): { tip: string; path: string; seq?: number; signed?: number } | undefined;
  /** The tip of the job's mark, if it took one. */
  markTip(): Promise<string | undefined>;
  /** The ids of the records the store wrote. */
  written: ReadonlySet<string>;
}

/**
 * Claims as {@linkcode claimByOrder} does, then checks the gate's history for
 * the claim's approval ({@linkcode checkApprovalHistory}; the job's mark is
 * not asked of an approval this store wrote).
 * @param ctx The ledger (its remote found).
 * @param of The store's parts.
 * @param claim The job's claim.
 * @returns The standings after the claim.
 * @throws {OutcomeError} Exit 3 when the approval no longer counts.
 * @throws {InputError} Exit 2 when its history breaks a rule.
 */
export async function claimChecked(
  ctx: LedgerContext,
  of: ClaimingStore,
  claim: ClaimRecord,
): Promise<ClaimLedger> {
  const standings = await claimByOrder(of.store, claim);
  const at = of.locate(claim.name, claim.gate, claim.approvalId);
  if (at === undefined) return standings;
  const mark = of.written.has(claim.approvalId)
    ? undefined
    : await of.markTip();
  await checkApprovalHistory(ctx, {
    tip: at.tip,
    name: claim.name,
    gate: claim.gate,
    approvalId: claim.approvalId,
    file: posix.basename(at.path),
    ...(at.seq === undefined ? {} : { seq: at.seq }),
    ...(at.signed === undefined ? {} : { signed: at.signed }),
    ...(mark === undefined ? {} : { mark }),
  });
  return standings;
}

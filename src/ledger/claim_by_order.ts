/**
 * Claiming in a ledger that orders records by the order they were recorded (the
 * git ledger's branch; SPEC.md §10): write the claim, read the gate again, and of
 * claims of one plan and attempt the first in that order wins.
 * @module
 */

import { chunkRuns } from "./chunk_runs.ts";
import { type ClaimLedger, claimLedger } from "./claims.ts";
import type { LedgerStore } from "./ledger_store.ts";
import type { ClaimRecord } from "./records.ts";

/**
 * Records `claim` (in chunks of at most 64 KiB, written together) and reads back
 * where every plan of its approval stands.
 * @param store A store whose `readGate` returns records in the order written.
 * @param claim The job's claim.
 * @returns The standings after the claim.
 * @throws {Error} When the claim cannot be recorded.
 */
export async function claimByOrder(
  store: Pick<LedgerStore, "write" | "readGate">,
  claim: ClaimRecord,
): Promise<ClaimLedger> {
  await Promise.all(chunkRuns(claim).map((chunk) => store.write(chunk)));
  const { records } = await store.readGate(claim.name, claim.gate);
  return claimLedger(records, claim.approvalId);
}

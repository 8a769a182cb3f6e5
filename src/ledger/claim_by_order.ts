/**
 * Spending an approval in a ledger that orders records by the order they were
 * recorded (the git ledger's branch): write the `applied` fact, read the gate
 * again, and the first `applied` fact of the approval wins.
 * @module
 */

import type { LedgerStore } from "./ledger_store.ts";
import type { AppliedRecord } from "./records.ts";

/**
 * Claims an approval by writing `record` and reading the gate back. Race-safe
 * only for a store whose `readGate` returns records in the order they were
 * recorded, never by a timestamp the writer chose.
 * @param store The store (its `write` and `readGate`).
 * @param record This decision's `applied` fact.
 * @returns The first `applied` fact of the approval.
 */
export async function claimByOrder(
  store: Pick<LedgerStore, "write" | "readGate">,
  record: AppliedRecord,
): Promise<AppliedRecord> {
  await store.write(record);
  const { records } = await store.readGate(record.name, record.gate);
  const first = records.find((r): r is AppliedRecord =>
    r.kind === "applied" && r.approvalId === record.approvalId
  );
  return first ?? record;
}

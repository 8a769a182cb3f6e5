/**
 * Where a rollout was last decided under a trusted base, read from the ledger:
 * the trusted decision heads of its first wave's gate and of one wave's gate,
 * oldest first. The chain rule stops at them (SPEC.md §4.4), and a change under
 * `selfApproval: false` reaches back to the newest of them (§12.1): a commit
 * that no job ever ran (a push with `[skip ci]`) is still part of the change
 * the next job applies. An edge over the ledger store; the heads are
 * `trustedDecisionHeads`'s.
 * @module
 */

import type { LedgerStore } from "./ledger_store.ts";
import { trustedDecisionHeads } from "./trusted_decision_heads.ts";

/**
 * Reads the trusted decision heads of two gates of a rollout.
 * @param ledger The ledger store.
 * @param name The rollout's name.
 * @param gates The gates to read (the first wave's and the job's), repeats
 *   read once.
 * @returns The head commits, oldest decision first (by record time).
 */
export async function recordedDecisions(
  ledger: Pick<LedgerStore, "readGate">,
  name: string,
  gates: readonly string[],
): Promise<string[]> {
  const records = [];
  for (const gate of new Set(gates)) {
    records.push(...(await ledger.readGate(name, gate)).records);
  }
  records.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  return [...trustedDecisionHeads(records)];
}

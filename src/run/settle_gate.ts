/**
 * Settling a gate as a new rollout starts (docs/ledger.md, "Compacting the
 * ledger"): before a deciding job records a new pending fact, what the rollouts
 * before it spent is settled and folded, so a gate that is never revoked and
 * never compacted by hand keeps a bounded tip. Only when every approval since
 * the gate's newest revoke is spent and nothing else waits (`spentCut`); the
 * fold is a write like any other. A settle that cannot be written is a warning:
 * the job goes on, and the next one settles.
 * @module
 */

import type { Ledger } from "../ledger/ledger.ts";

/**
 * Settles and folds one gate if every approval in it was spent; says so in
 * words for the people who approve (the approvals of earlier rollouts no
 * longer count here), never with the ledger's own ids.
 * @param ledger The job's ledger.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param log Where to say what it did.
 */
export async function settleGate(
  ledger: Pick<Ledger, "compact">,
  name: string,
  gate: string,
  log: (line: string) => void,
): Promise<void> {
  try {
    const report = await ledger.compact({ name, gate, settle: "only" });
    for (const folded of report.gates) {
      if (folded.settled === undefined) continue;
      log(spentLine(folded.settled.approvals?.length ?? 0));
    }
  } catch (error) {
    log(`warning: ${gate} was not settled: ${(error as Error).message}`);
  }
}

/**
 * Says that the approvals of earlier rollouts were spent.
 * @param n How many the settle ended.
 * @returns `note: the 2 approvals of earlier rollouts were spent (their plans
 *   applied), so they no longer count here`.
 * @example
 * ```ts
 * spentLine(1);
 * // "note: the approval of an earlier rollout was spent (its plans applied), so it no longer counts here"
 * ```
 */
export function spentLine(n: number): string {
  return n === 1
    ? "note: the approval of an earlier rollout was spent (its plans applied), so it no longer counts here"
    : `note: the ${n} approvals of earlier rollouts were spent (their plans applied), so they no longer count here`;
}

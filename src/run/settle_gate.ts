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

import { countOf } from "../count_of.ts";
import type { Ledger } from "../ledger/ledger.ts";

/**
 * Settles and folds one gate if every approval in it was spent; says so.
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
      log(
        `settled ${gate}: ${
          countOf(folded.settled.approvals?.length ?? 0, "approval")
        } of earlier rollouts spent; ${
          countOf(folded.records, "record")
        } folded into summary ${folded.summary?.id.slice(0, 12)}`,
      );
    }
  } catch (error) {
    log(`warning: ${gate} was not settled: ${(error as Error).message}`);
  }
}

/**
 * The outcome step of the apply stage (SPEC.md §10): records each claimed
 * run's outcome in the ledger as soon as it is known, so a failed run may be
 * claimed again under the same approval and an applied one never is. Which
 * runs were claimed is the claim step's.
 * @module
 */

import { chunkRuns } from "../gate/claims.ts";
import { newRecord, newStamp, type SettledRun } from "../gate/records.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { ClaimedRuns } from "./claim_stage.ts";
import type { Decision } from "../gate/decision.ts";
import type { RunIo } from "./run_io.ts";

/** Records claimed runs' outcomes while the job goes on. */
export interface OutcomeWriter {
  /** Records that a run applied (`ok`) or did not (failed, interrupted, untried). */
  settle(target: string, ok: boolean): void;
  /**
   * Waits until every outcome given is recorded.
   * @throws {Error} The first write that failed.
   */
  drain(): Promise<void>;
}

/**
 * Records each claimed run's outcome as soon as it is known: `ok` when it
 * applied, `failed` when its apply failed, timed out, was interrupted or never
 * started, so it may be claimed again. Outcomes that arrive while a write is
 * under way are written together in the next record, so a wide wave writes few
 * records, and a job that dies loses only the outcomes not yet written. A
 * target this attempt did not claim is ignored.
 * @param claimed The runs this job attempt claimed.
 * @param decision The decision they were claimed for.
 * @param io The ledger, the environment and the clock.
 * @returns The writer.
 */
export function outcomeWriter(
  claimed: ClaimedRuns,
  decision: Pick<Decision, "name" | "gate" | "decisionId">,
  io: Pick<RunIo, "ledger" | "env" | "clock">,
): OutcomeWriter {
  const runId = ciContext(io.env).runId;
  let queue: SettledRun[] = [];
  let writing: Promise<void> | undefined;
  let failure: unknown;
  const write = async () => {
    while (queue.length > 0) {
      const runs = queue;
      queue = [];
      const record = newRecord("run-outcome", {
        name: decision.name,
        gate: decision.gate,
        approvalId: claimed.approvalId,
        decisionId: decision.decisionId,
        attemptId: claimed.attemptId,
        runs,
        ...(runId ? { runId } : {}),
      }, newStamp(io.clock));
      await Promise.all(
        chunkRuns(record).map((chunk) => io.ledger.write(chunk)),
      )
        .catch((error) => failure ??= error);
    }
    writing = undefined;
  };
  return {
    settle(target, ok) {
      const run = claimed.runs.get(target);
      if (run === undefined) return;
      queue.push({ ...run, outcome: ok ? "ok" : "failed" });
      writing ??= write();
    },
    async drain() {
      while (writing) await writing;
      if (failure) throw failure;
    },
  };
}

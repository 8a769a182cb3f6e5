/**
 * The wave outcome every applying job records when it ends (SPEC.md §4.11):
 * `applied`, `failed` or `nothing-to-do`, for the commit it ran at, so the next
 * wave can tell that this one is complete for that revision. Dry runs and jobs
 * that wait record nothing.
 * @module
 */

import { WAITING } from "../exit_codes.ts";
import {
  newRecord,
  newStamp,
  type OutcomeJob,
  type WaveOutcome,
} from "../gate/records.ts";
import type { BaseRule } from "../gate/base_rule.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { Decision } from "../gate/decision.ts";
import type { JobResult } from "../jobs/job_result.ts";
import type { RunIo } from "./run_io.ts";

/**
 * The outcome a finished job records: `failed` when a run failed or moved,
 * `applied` when it applied something, else `nothing-to-do`.
 * @param result The job's result.
 * @returns The outcome.
 * @example
 * ```ts
 * waveOutcomeOf({ exitCode: 0, applied: [], failed: [], moved: [] } as JobResult);
 * // "nothing-to-do"
 * ```
 */
export function waveOutcomeOf(
  result: Pick<JobResult, "exitCode" | "applied" | "failed" | "moved">,
): WaveOutcome {
  if (result.exitCode !== 0 || result.failed.length || result.moved.length) {
    return "failed";
  }
  return result.applied.length ? "applied" : "nothing-to-do";
}

/**
 * Records the job's wave outcome in the wave's gate.
 * @param decision The decision the job applied.
 * @param at The commit the job ran at (full sha) and the rule that chose its
 *   base, which the chain rule of later jobs reads.
 * @param result The job's result.
 * @param io The edges.
 */
export async function recordWaveOutcome(
  decision: Decision,
  at: { head: string; rule: BaseRule },
  result: JobResult,
  io: RunIo,
): Promise<void> {
  if (result.exitCode === WAITING) return;
  const job = outcomeJobOf(result.job);
  const { runId, actor } = ciContext(io.env);
  await io.ledger.write(newRecord("wave-outcome", {
    name: decision.name,
    gate: decision.gate,
    wave: decision.wave,
    head: at.head,
    digest: decision.digest,
    decisionId: decision.decisionId,
    job,
    outcome: waveOutcomeOf(result),
    baseRule: at.rule,
    ...(runId ? { runId } : {}),
    ...(actor ? { actor } : {}),
  }, newStamp(io.clock)));
}

/**
 * Names a job as its wave outcome does: its share and group; a whole-wave
 * (or deciding) job as `wave`.
 * @param job The job, as its result names it.
 * @returns The job, as wave outcomes name it.
 * @example
 * ```ts
 * outcomeJobOf({ kind: "group", group: "eu" }); // { kind: "group", group: "eu" }
 * ```
 */
export function outcomeJobOf(job: JobResult["job"]): OutcomeJob {
  const { kind, share, group } = job;
  return kind === "share"
    ? { kind: "share", ...(share ? { share } : {}) }
    : kind === "group"
    ? {
      kind: "group",
      ...(group ? { group } : {}),
      ...(share ? { share } : {}),
    }
    : { kind: "wave" };
}

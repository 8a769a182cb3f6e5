/**
 * Re-running a job that succeeded does nothing and succeeds (SPEC.md §10): a
 * run whose fresh plan is empty because an earlier job applied it is `already
 * applied`, not moved. For a share or group job's run whose fresh plan is not
 * the decided one, that takes the ledger showing the decided plan applied
 * under the decision's approval (a gated decision), or, for a decision
 * needing none, an `applied` outcome of this very job at this head; a run the
 * decision lacks stays moved. Any other empty run is only named so (instead
 * of `no changes`) after such an outcome. A run whose fresh plan is not empty
 * is never looked at: it is judged as before. Reads the gate's records as of
 * the job's mark (or takes those the job read already), and its whole history
 * when compaction folded the decision's approval away (a re-run after a
 * `ledger compact`); writes nothing.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { claimLedger } from "../gate/claims.ts";
import type { LedgerRecord, OutcomeJob, PlanPair } from "../gate/records.ts";
import { sameJob } from "../order/wave_completion.ts";
import type { RunIo } from "./run_io.ts";

/** A run whose fresh plan is empty. */
export interface EmptyRun {
  target: string;
  /** Whether its fresh plan is not the decided one (a share or group job's). */
  moved: boolean;
  /** The plan decided for it, when the decision has one. */
  decided?: PlanPair;
}

/** Which job asks, and about what. */
export interface AlreadyAppliedQuery {
  /** The spec's `name`. */
  name: string;
  /** The wave's gate. */
  gate: string;
  /** The wave's number. */
  wave: number;
  /** The commit the job runs at (full sha). */
  head: string;
  /** The job, as its wave outcomes name it. */
  job: OutcomeJob;
  /** The runs whose fresh plan is empty. */
  runs: readonly EmptyRun[];
  /** Whether the decision needs an approval (policy at base). */
  gated: boolean;
  /** The approval a gated decision names. */
  approvalId?: string;
}

/**
 * Decides which empty runs are already applied, from the gate's records.
 * @param records The gate's records, oldest first (ledger order).
 * @param query The job, its head, the empty runs and the decision's approval.
 * @returns The targets that are `already applied`.
 * @example
 * ```ts
 * alreadyAppliedIn([], query); // Set {}
 * ```
 */
export function alreadyAppliedIn(
  records: readonly LedgerRecord[],
  query: AlreadyAppliedQuery,
): Set<string> {
  const appliedHere = records.some((r) =>
    r.kind === "wave-outcome" && r.outcome === "applied" &&
    r.wave === query.wave && r.head === query.head && sameJob(r.job, query.job)
  );
  // A gated decision's plans count only as its own approval shows them.
  const claims = query.gated
    ? claimLedger(records, query.approvalId ?? "")
    : undefined;
  const already = new Set<string>();
  for (const run of query.runs) {
    const applied = !run.moved
      ? appliedHere
      : run.decided === undefined
      ? false
      : claims
      ? claims.standing(run.decided).kind === "applied"
      : appliedHere;
    if (applied) already.add(run.target);
  }
  return already;
}

/**
 * Finds the runs already applied: in the gate's records the job read already
 * (the whole gate, as a share job's check of a gated decision read it), else
 * by reading the gate (only when some run has an empty plan); and when the
 * tip no longer holds the decision's approval (compaction folded it with its
 * claims), in the gate's whole history.
 * @param query The job, its head, the empty runs and the decision's approval.
 * @param io The ledger, the job's mark and the log.
 * @param records The whole gate's records, when the job read them already.
 * @returns The targets that are `already applied`.
 */
export async function findAlreadyApplied(
  query: AlreadyAppliedQuery,
  io: Pick<RunIo, "ledger" | "asOf" | "stderr">,
  records?: readonly LedgerRecord[],
): Promise<Set<string>> {
  if (query.runs.length === 0) return new Set();
  const tip = records ?? await readTip(query, io);
  const found = alreadyAppliedIn(tip, query);
  const { approvalId } = query;
  const folded = query.gated && approvalId !== undefined &&
    query.runs.some((run) => !found.has(run.target)) &&
    !tip.some((r) => r.kind === "approval" && r.id === approvalId);
  if (!folded) return found;
  return alreadyAppliedIn(
    (await io.ledger.readAll(query.name, query.gate)).records,
    query,
  );
}

/** The whole gate at the tip: a revoke since ends approvals, not what they applied. */
async function readTip(
  query: AlreadyAppliedQuery,
  io: Pick<RunIo, "ledger" | "asOf" | "stderr">,
): Promise<readonly LedgerRecord[]> {
  const read = await io.ledger.readGate(query.name, query.gate, {
    asOf: io.asOf,
  });
  for (const problem of read.problems) {
    lineLog(io.stderr)(`warning: ledger: ${problem}`);
  }
  return read.records;
}

/**
 * The runs of a share or group job whose fresh plan is empty, each with the
 * plan decided for it and whether it moved.
 * @param planned The runs planned now.
 * @param members The decision's members.
 * @param moved The targets whose plan moved since the decision.
 * @returns The empty runs.
 * @example
 * ```ts
 * emptyRunsOf([], [], []); // []
 * ```
 */
export function emptyRunsOf(
  planned: readonly { target: string; plan: { empty: boolean } }[],
  members: readonly PlanPair[],
  moved: readonly string[],
): EmptyRun[] {
  const decided = new Map(members.map((m) => [m.target, m]));
  return planned.filter((run) => run.plan.empty).map(({ target }) => {
    const member = decided.get(target);
    return {
      target,
      moved: moved.includes(target),
      ...(member ? { decided: { target, planDigest: member.planDigest } } : {}),
    };
  });
}

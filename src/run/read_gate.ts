/**
 * Reads a gate from the ledger and decides it (SPEC.md §5.3, §10): the gate's
 * records, the plan sets of the approvals that count, each approval judged under
 * the wave's rules at base (when the caller has them), and the pure `decideGate`.
 * Problems with records are logged as warnings. Used by every stage that asks
 * whether a decision's plans stand approved.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import {
  countingApprovals,
  decideGate,
  type GateDecision,
  type GateMember,
} from "../ledger/decide_gate.ts";
import type { LedgerStore } from "../ledger/ledger_store.ts";
import type { LedgerRecord, PlanPair } from "../ledger/records.ts";
import type { GateJudge } from "./gate_rules.ts";
import type { RunIo } from "./run_io.ts";

/** A gate as read: its records and the decision for some members. */
export interface GateRead {
  records: LedgerRecord[];
  decision: GateDecision;
}

/**
 * Loads the plan sets of the counting approvals' digests.
 * @param ledger The store.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param records The gate's records.
 * @returns Digest → pairs, for each digest that has a valid plan set.
 */
export async function loadPlanSets(
  ledger: Pick<LedgerStore, "readPlanSet">,
  name: string,
  gate: string,
  records: readonly LedgerRecord[],
): Promise<Map<string, PlanPair[]>> {
  const digests = new Set(countingApprovals(records).map((a) => a.planDigest));
  const sets = new Map<string, PlanPair[]>();
  for (const digest of digests) {
    const pairs = await ledger.readPlanSet(name, gate, digest);
    if (pairs) sets.set(digest, pairs);
  }
  return sets;
}

/**
 * Reads gate `gate` and decides whether an approval covers `members`.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param query The decision's digest and members, and the judge of the wave's
 *   approvals under its rules at base (absent: any one approval counts).
 * @param io The ledger, the clock and the log.
 * @returns The records and the gate decision.
 */
export async function readGate(
  name: string,
  gate: string,
  query: {
    digest: string;
    members: readonly GateMember[];
    judge?: GateJudge;
  },
  io: Pick<RunIo, "ledger" | "clock" | "stderr" | "asOf">,
): Promise<GateRead> {
  const { records, problems } = await io.ledger.readGate(name, gate, {
    asOf: io.asOf,
  });
  const log = lineLog(io.stderr);
  for (const problem of problems) log(`warning: ledger: ${problem}`);
  const sets = await loadPlanSets(io.ledger, name, gate, records);
  const rules = await query.judge?.judge(records, query.digest);
  return {
    records,
    decision: decideGate(records, sets, {
      gate,
      digest: query.digest,
      members: query.members,
      now: io.clock.now(),
      ...(rules ? { rules } : {}),
    }),
  };
}

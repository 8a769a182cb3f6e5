/**
 * Reads a gate from the ledger and decides it (SPEC.md §5.3, §10): the gate's
 * records, the plan sets of the approvals that count, each approval judged under
 * the wave's rules at base (when the caller has them), and the pure `decideGate`.
 * Problems with records are logged as warnings. Used by every stage and
 * command that asks whether a decision's plans stand approved.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { decideGate, type GateDecision } from "../gate/decide_gate.ts";
import type { GateMember, LedgerRecord, PlanPair } from "../gate/records.ts";
import type { LedgerMark } from "./ledger_store.ts";
import type { Ledger } from "./ledger.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import type { Clock } from "../clock.ts";
import type { Writer } from "../console/writer.ts";
import type { GateRecords } from "../gate/screen_records.ts";
import {
  countingApprovals,
  revokedWithoutApproval,
} from "../gate/revoke_floor.ts";

/** What reading a gate takes: the ledger, the job's mark, the clock, the log. */
export interface ReadGateIo {
  ledger: Ledger;
  /** The job's mark (`RunIo.asOf`): records that arrived after it do not loosen. */
  asOf?: LedgerMark;
  clock: Clock;
  /** Where problems with records are logged, as warnings. */
  stderr: Writer;
}

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
  ledger: Pick<Ledger, "readPlanSets">,
  name: string,
  gate: string,
  records: readonly LedgerRecord[],
): Promise<Map<string, PlanPair[]>> {
  const digests = new Set(countingApprovals(records).map((a) => a.planDigest));
  return await ledger.readPlanSets(name, gate, [...digests]);
}

/**
 * Reads gate `gate` and decides whether an approval covers `members`.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param query The decision's digest and members, the judge of the wave's
 *   approvals under its rules at base (absent: any one approval counts), and
 *   whether every record is wanted (`whole`; else only those from the gate's
 *   newest revoke on, all a decision can need); with `records`, every record
 *   of the gate as the caller read it already (as of the job's mark, when it
 *   has one): the gate is decided on those, not read again; and whether the
 *   members are fresh plans of live state (`GateQuery.liveState`); and a
 *   freeze holding now (`GateQuery.freeze`).
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
    whole?: boolean;
    records?: GateRecords;
    liveState?: boolean;
    wave?: string;
    freeze?: { reason: string };
  },
  io: ReadGateIo,
): Promise<GateRead> {
  const decide = async (whole: boolean) => {
    const { records, problems } = query.records ??
      await io.ledger.readGate(name, gate, {
        asOf: io.asOf,
        ...(whole ? {} : { live: true }),
      });
    const sets = await loadPlanSets(io.ledger, name, gate, records);
    const rules = await query.judge?.judge(records, query.digest);
    const decision = decideGate(records, sets, {
      gate,
      digest: query.digest,
      members: query.members,
      now: io.clock.now(),
      ...(rules ? { rules } : {}),
      ...(query.liveState ? { liveState: true } : {}),
      ...(query.wave === undefined ? {} : { wave: query.wave }),
      ...(query.freeze ? { freeze: query.freeze } : {}),
    });
    return { records, problems, decision };
  };
  let read = await decide(query.whole === true || query.records !== undefined);
  // Waiting with no approval since a revoke: read what came before it too, so
  // the reasons can say which approval was revoked.
  if (
    read.decision.status === "waiting" && query.whole !== true &&
    query.records === undefined && revokedWithoutApproval(read.records)
  ) read = await decide(true);
  const log = lineLog(io.stderr);
  for (const problem of read.problems) log(`warning: ledger: ${problem}`);
  return { records: read.records, decision: read.decision };
}

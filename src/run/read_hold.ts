/**
 * Reads a hold's gate from the ledger (SPEC.md §11): the other gate's records,
 * the plans of its newest pending fact and the approvals that count for them,
 * and its wave outcomes; then decides with the pure `holdStanding`. Approvals
 * count by the ledger's rules (§5.3, §10) and, when the job has one for that
 * gate, its judge: the rules of that gate's wave at base (a hold on a sealed
 * gate counts a sealed approval only), or on another rollout's gate in a
 * `sealed` or `forge` wave, this wave's own (the change's code may write the
 * ledger there, so an unsigned record decides nothing).
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import {
  type HoldStanding,
  holdStanding,
  newestPendingFact,
} from "../hooks/hold_standing.ts";
import { completeSince, type WaveShape } from "../order/wave_completion.ts";
import { decideGate } from "../gate/decide_gate.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import { approveCommand } from "../gate/gate_messages.ts";
import type { LedgerRecord, PendingRecord } from "../gate/records.ts";
import type { HoldTarget } from "../spec/types.ts";
import { loadPlanSets } from "../ledger/read_gate.ts";
import type { RunIo } from "./run_io.ts";

/**
 * The shape of a held gate's wave (its number, shares and job groups), from
 * the rollout's spec as the job or the pending fact's head has it; `undefined`
 * when it cannot be read.
 */
export type HoldShapeOf = (
  target: HoldTarget,
  pending: PendingRecord | undefined,
) => Promise<WaveShape | undefined>;

/** A hold as read, with the command that would approve what it waits for. */
export interface HoldRead extends HoldStanding {
  /** `chant-wave approve <name> <gate> --plan <digest>`, when an approval is missing. */
  approve?: string;
  /** Who approved the pending plans, when someone did. */
  approvedBy?: string;
}

/**
 * Reads whether a hold stands.
 * @param target The rollout, gate and `applied` of the hold.
 * @param io The ledger, the clock and the log.
 * @param ledgerArg The `--ledger` argument the approve command needs, if any.
 * @param judge Judges the gate's approvals (see the module), when the job has one.
 * @param shapeOf The held wave's shares and job groups, for `applied` (see
 *   {@linkcode HoldShapeOf}); unknown, only a whole-wave job completes it.
 * @returns `ok` or `held`, why, and the approve command when one is missing.
 */
export async function readHold(
  target: HoldTarget,
  io: Pick<RunIo, "ledger" | "clock" | "stderr" | "asOf">,
  ledgerArg?: string,
  judge?: GateJudge,
  shapeOf?: HoldShapeOf,
): Promise<HoldRead> {
  const { records, problems } = await io.ledger.readGate(
    target.name,
    target.gate,
    { asOf: io.asOf },
  );
  for (const problem of problems) {
    lineLog(io.stderr)(`warning: ledger: ${problem}`);
  }
  const pending = newestPendingFact(records);
  const approvedBy = pending
    ? await approverOf(target, records, pending, io, judge)
    : undefined;
  const applied = target.applied
    ? completeSince(
      records,
      pending,
      target.gate,
      await shapeOf?.(target, pending),
    )
    : { applied: false };
  const standing = holdStanding(target, {
    ...(pending ? { pending } : {}),
    ...(approvedBy === undefined ? {} : { approvedBy }),
    ...applied,
  });
  const approve = pending && approvedBy === undefined
    ? approveCommand(target.name, target.gate, pending.planDigest, {
      ...(ledgerArg === undefined ? {} : { ledger: ledgerArg }),
      ...(judge?.rules.mode === "sealed" ? { sign: true } : {}),
    })
    : undefined;
  return {
    ...standing,
    ...(approve ? { approve } : {}),
    ...(approvedBy === undefined ? {} : { approvedBy }),
  };
}

/**
 * Who approved the pending fact's plans: the counting approval that covers its
 * plan set (§10), or without a plan set, one of exactly its digest; judged,
 * when a judge is given, as that judge's rules say.
 */
async function approverOf(
  target: HoldTarget,
  records: readonly LedgerRecord[],
  pending: PendingRecord,
  io: Pick<RunIo, "ledger" | "clock">,
  judge: GateJudge | undefined,
): Promise<string | undefined> {
  const digest = pending.planDigest;
  const pairs = await io.ledger.readPlanSet(target.name, target.gate, digest);
  // Without its plan set, a pending fact names no plans an approval of another
  // digest could cover: only an approval of exactly its digest counts.
  const counted = pairs === undefined
    ? records.filter((r) => r.kind !== "approval" || r.planDigest === digest)
    : records;
  const sets = await loadPlanSets(io.ledger, target.name, target.gate, counted);
  const rules = await judge?.judge(counted, digest);
  const decision = decideGate(counted, sets, {
    gate: target.gate,
    digest,
    members: pairs ?? [],
    now: io.clock.now(),
    ...(rules ? { rules } : {}),
  });
  return decision.status === "approved" ? decision.approvedBy : undefined;
}

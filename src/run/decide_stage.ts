/**
 * The decide stage of a whole-wave or deciding job (SPEC.md §4.4–§4.6, §11, §12,
 * §19): the policy, the approval rules and the freeze windows at base for every
 * target the wave holds (a window holding now makes plans that change anything
 * wait for an approval given with `--during-freeze`), a
 * `forge` gate's review approval (§13) and its approvals confirmed through the
 * forge, the gate decision under those rules (the gate read once, and handed
 * on to the claim stage), the hooks share and group jobs will run, and the
 * decision record (written atomically; not by a dry run). The hooks report then
 * says whether the decision stands approved, and a waiting job's summary the
 * approval rules at base in words and the tally of who counted.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { maskingReplacer } from "../console/visible.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { jsonPieces } from "../json_pieces.ts";
import { pacedPieces } from "../exec/pace_collections.ts";
import { decisionRecordPath } from "../jobs/expand_jobs.ts";
import { jobGateJudge, type WaveJob } from "./wave_job.ts";
import { decideWave } from "./decide_wave.ts";
import { gateName } from "../gate/gate_messages.ts";
import type { Decision, DecisionMember } from "../gate/decision.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import { wavePolicy, wavePolicyLines } from "../gate/policy_at_base.ts";
import { reviewStage } from "./review_stage.ts";
import { rulesStage } from "./rules_stage.ts";
import { timingAtBase } from "../gate/timing_at_base.ts";
import { freezeHold } from "../gate/freeze_hold.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import { type RunIo, throwIfInterrupted } from "./run_io.ts";

/** What the decide stage gives the claim and apply stages. */
export interface Decided {
  /** The decision, with the wave's hooks when it has any. */
  decision: Decision;
  /** Judges the gate's approvals under the wave's rules at base. */
  judge: GateJudge;
  /**
   * The gate as read and decided for the plans, when they need an approval:
   * the claim stage claims under it without reading it again.
   */
  gate?: GateDecision;
}

/**
 * Decides the wave and writes its decision record.
 * @param job The wave job.
 * @param plans The wave's planned runs, and the same as decision members.
 * @param targets Every target it holds (declared and planned).
 * @returns The decision, the judge of the gate's approvals, and the gate as
 *   decided, for the claim and apply stages.
 * @throws {OutcomeError} When interrupted (130/143).
 */
export async function decideStage(
  job: WaveJob,
  plans: { planned: readonly PlannedRun[]; members: DecisionMember[] },
  targets: readonly string[],
): Promise<Decided> {
  const { input, wave, base, io } = job;
  const { planned, members } = plans;
  // Planning's leftovers are freed before deciding builds its own per run.
  io.pacer?.settle(planned.length);
  const atBase = wavePolicy(base.bases, wave, targets);
  for (const line of wavePolicyLines(atBase, wave)) lineLog(io.stderr)(line);
  const { policy, approvers, verdict } = rulesStage(
    base.bases,
    wave,
    targets,
    atBase,
    members,
    io.stderr,
  );
  const { judge, forge } = jobGateJudge({
    name: input.spec.name,
    gate: gateName(input.spec, wave.k),
    wave,
    bases: base.bases,
    targets,
    base,
    ask: !input.dryRun,
    policySaid: true,
    rules: approvers,
  }, io);
  const read = await reviewStage({
    spec: input.spec,
    wave,
    planned,
    policy,
    judge,
    review: forge.review,
    dryRun: input.dryRun,
  }, io);
  throwIfInterrupted(io);
  const freeze = freezeHold(
    timingAtBase(base.bases, { k: wave.k, name: wave.name, targets }).freeze,
    io.clock.now(),
  );
  const decided = await decideWave(
    {
      ...input,
      wave,
      planned,
      members,
      policy,
      base,
      judge,
      ...(read ? { read } : {}),
      ...(freeze ? { freeze } : {}),
    },
    io,
  );
  throwIfInterrupted(io);
  const hooks = job.hooks.hooks();
  const rules = verdict.decided.map((rule) => rule.description);
  const decision: Decision = {
    ...decided.decision,
    ...(rules.length > 0 ? { rules } : {}),
    ...(Object.values(hooks).some((list) => list.length) ? { hooks } : {}),
  };
  if (!input.dryRun) await writeDecision(decision, io);
  await job.report.approved(decision.status === "approved");
  return { decision, judge, ...(decided.gate ? { gate: decided.gate } : {}) };
}

/** Writes the decision record atomically, URLs in its free text masked. */
async function writeDecision(decision: Decision, io: RunIo): Promise<void> {
  const path = resolve(
    io.cwd,
    decisionRecordPath(decision.name, decision.wave),
  );
  await writeFileAtomic(path, pacedPieces(decisionText(decision), io.pacer));
}

/**
 * The record's text, `JSON.stringify(decision, maskingReplacer, 2)` and a line
 * end, in pieces: a large wave's is megabytes.
 */
function* decisionText(decision: Decision): Generator<string> {
  yield* jsonPieces(decision, maskingReplacer);
  yield "\n";
}
import {
  type ApprovalRules,
  describeApprovers,
  describeMode,
} from "../gate/approval_at_base.ts";
import type { WaitingNote } from "../jobs/job_result.ts";

/**
 * The note of a waiting job.
 * @param rules The approval rules at base.
 * @param tally The tally line, when some approval covers the plans.
 * @param approve The command that approves them, when one would.
 * @param counted How many distinct approvals count so far.
 * @returns The note.
 * @example
 * ```ts
 * waitingNote(rules, undefined, "chant-wave approve tf tf-wave-1 --plan …", 0).rules;
 * // "ledger, 1 approver, anyone, self-approval allowed (read at …)"
 * ```
 */
export function waitingNote(
  rules: ApprovalRules,
  tally: string | undefined,
  approve: string | undefined,
  counted: number,
): WaitingNote {
  return {
    ...(approve === undefined ? {} : { approve }),
    rules: `${describeMode(rules)}, ${
      describeApprovers(rules)
    } (${rules.reason})`,
    ...(tally === undefined ? {} : { tally }),
    approvals: { counted, required: rules.required },
  };
}

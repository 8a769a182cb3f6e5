/**
 * The apply stage shared by whole-wave, share and group jobs (SPEC.md §4.7, §10):
 * empty plans are skipped (nothing to apply: `no changes`, or `already applied`
 * when an earlier job applied what they now plan); under an approval, the gate
 * is read again and the claim step claims the rest (`claim_stage.ts`), the won
 * ones are applied and every outcome recorded (`outcome_writer.ts`), so a
 * failed run may be retried under the same approval and an applied one never
 * applies twice.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import type { GateApproved } from "../ledger/decide_gate.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { applyRuns } from "./apply_runs.ts";
import {
  claimStage,
  type ClaimStageOutcome,
  sayClaimedElsewhere,
} from "./claim_stage.ts";
import type { Decision } from "../jobs/decision.ts";
import type { GateJudge } from "../gate/gate_rules.ts";
import type { SkippedRun } from "../jobs/job_result.ts";
import { logFailures } from "./log_failures.ts";
import { outcomeWriter } from "./outcome_writer.ts";
import type { ApplyOutcome, PlanContext, PlannedRun } from "./run_outcomes.ts";
import { readGate } from "../gate/read_gate.ts";
import type { RunIo } from "./run_io.ts";
import { throwIfInterrupted } from "./throw_if_interrupted.ts";
import { type SummaryInput, summaryRows } from "./summary_table.ts";
import { formatTable } from "../table.ts";

/** What the apply stage did. */
export interface ApplyStageOutcome extends ApplyOutcome {
  /** Runs not applied on purpose: empty plans, plans applied already. */
  skipped: SkippedRun[];
}

/** The apply stage's input. */
export interface ApplyStageInput {
  spec: Spec;
  wave: Wave;
  decision: Decision;
  /** Whether the policy at base needs an approval for the decision. */
  gated: boolean;
  /** The runs to apply (planned, unmoved). */
  planned: readonly PlannedRun[];
  /** Judges the gate's approvals under the wave's rules at base. */
  judge: GateJudge;
  context: Omit<PlanContext, "discover">;
  /** The `--ledger` argument printed commands need, when not the default. */
  ledgerArg?: string;
  /** The job's runs refused (plan moved) and failed to plan, for the summary. */
  notApplied?: Pick<SummaryInput, "moved" | "unplanned">;
  /**
   * The targets whose empty plan is what an earlier job applied (SPEC.md §10,
   * `already_applied.ts`): skipped as `already applied`, not `no changes`. A
   * run whose plan is not empty is never skipped for being named here.
   */
  alreadyApplied?: ReadonlySet<string>;
}

/**
 * Applies the runs of a decided wave.
 * @param input The spec, wave, decision, whether it is gated, the runs.
 * @param io The edges.
 * @returns What applied, failed, was skipped and left untried; or `waiting` when
 *   the gate no longer stands approved for the decision (then nothing applied).
 * @throws {OutcomeError} When interrupted (130/143), after recording the outcomes.
 */
export async function applyStage(
  input: ApplyStageInput,
  io: RunIo,
): Promise<ApplyStageOutcome | "waiting"> {
  const { spec, wave, decision } = input;
  const log = lineLog(io.stderr);
  const skipped = emptyRuns(input);
  const nonEmpty = input.planned.filter((run) => !run.plan.empty);
  const claim = input.gated && nonEmpty.length > 0
    ? await claimUnderGate(nonEmpty, input, io)
    : undefined;
  if (claim === "waiting") return "waiting";
  if (claim) skipped.push(...claim.skipped);
  const runs = claim ? claim.won : nonEmpty;
  const outcomes = claim
    ? outcomeWriter(claim.claimed, decision, io)
    : undefined;
  const durations = new Map<string, number>();
  const applied = await applyRuns(
    spec,
    wave,
    runs,
    input.context,
    io,
    (target, ok, durationMs) => {
      outcomes?.settle(target, ok);
      durations.set(target, durationMs ?? 0);
      if (runs.length >= PROGRESS_FROM) {
        log(
          `[${durations.size}/${runs.length}] ${target}: ${
            ok ? "applied" : "failed"
          }`,
        );
      }
    },
  );
  if (outcomes) {
    for (const target of applied.untried) outcomes.settle(target, false);
    await outcomes.drain();
  }
  throwIfInterrupted(io);
  const failed = [...claim?.refused ?? [], ...applied.failed];
  logFailures(failed, io.stderr);
  for (const { message } of applied.moved) log(`moved: ${message}`);
  if (claim?.gate) {
    sayClaimedElsewhere(claim.gate, decision, {
      ...(input.ledgerArg === undefined ? {} : { ledgerArg: input.ledgerArg }),
      sealed: input.judge.rules.mode === "sealed",
    }, io);
  }
  const done = { ...applied, failed, skipped };
  logEnd(input, done, durations, io);
  return done;
}

/**
 * Reads the gate again and claims the runs under the approval it stands on:
 * `waiting` when it no longer stands (nothing applies); with `gate` when
 * another job claimed some with no outcome, for what the job says of them.
 */
async function claimUnderGate(
  runs: readonly PlannedRun[],
  input: ApplyStageInput,
  io: RunIo,
): Promise<(ClaimStageOutcome & { gate?: GateApproved }) | "waiting"> {
  const { spec, decision } = input;
  const gate = await readGate(spec.name, decision.gate, {
    digest: decision.digest,
    members: decision.members,
    judge: input.judge,
  }, io);
  if (gate.decision.status === "waiting") {
    const log = lineLog(io.stderr);
    log(
      `gate ${decision.gate}: the approval no longer stands for this decision; nothing applied`,
    );
    for (const reason of gate.decision.reasons) log(`  ${reason}`);
    return "waiting";
  }
  const claimed = await claimStage(runs, gate.decision, decision, io);
  return claimed.elsewhere > 0 ? { ...claimed, gate: gate.decision } : claimed;
}

/** The end of the stage's log: untried and skipped runs, the summary table. */
function logEnd(
  input: ApplyStageInput,
  done: ApplyStageOutcome,
  durations: ReadonlyMap<string, number>,
  io: RunIo,
): void {
  const { wave } = input;
  const log = lineLog(io.stderr);
  if (done.untried.length) {
    log(
      `untried after a failure (onFailure: stop): ${done.untried.join(", ")}`,
    );
  }
  for (const { target, reason } of done.skipped) {
    log(`skipped: ${target}: ${reason}`);
  }
  const rows = summaryRows({
    planned: input.planned,
    outcome: done,
    durations,
    ...input.notApplied,
  });
  if (rows.length > 1) {
    log(`summary of wave ${wave.k} "${wave.name}":`);
    for (const line of formatTable(rows).trimEnd().split("\n")) {
      log(`  ${line}`);
    }
  }
  log(
    `applied ${
      countOf(done.applied.length, "run")
    } of wave ${wave.k} "${wave.name}"`,
  );
}

/** From this many runs on, a job prints a progress line as each run ends. */
const PROGRESS_FROM = 10;

/**
 * What the apply stage would do, recording nothing (dry runs, SPEC.md §4.9): the
 * runs it would apply, and those it would skip (empty, or already applied under
 * the approval).
 * @param input The spec, wave, decision, whether it is gated, the runs.
 * @param io The edges (the ledger is read, never written).
 * @returns How many runs would apply, and the skipped ones.
 */
export async function previewApply(
  input: Omit<ApplyStageInput, "context">,
  io: RunIo,
): Promise<{ apply: number; skipped: SkippedRun[] }> {
  const skipped = emptyRuns(input);
  const runs = input.planned.filter((run) => !run.plan.empty);
  if (!input.gated || runs.length === 0) return { apply: runs.length, skipped };
  const gate = await readGate(input.spec.name, input.decision.gate, {
    digest: input.decision.digest,
    members: input.decision.members,
    judge: input.judge,
  }, io);
  if (gate.decision.status === "waiting") return { apply: 0, skipped };
  const { claims } = gate.decision;
  let apply = 0;
  for (const run of runs) {
    const standing = claims.standing({
      target: run.target,
      planDigest: run.plan.planDigest,
    });
    if (standing.kind === "applied") {
      skipped.push({ target: run.target, reason: "already applied" });
    } else apply++;
  }
  return { apply, skipped };
}

/** The empty runs, skipped: `already applied` when named so, else `no changes`. */
function emptyRuns(
  input: Pick<ApplyStageInput, "planned" | "alreadyApplied">,
): SkippedRun[] {
  return input.planned.filter((run) => run.plan.empty).map(({ target }) => ({
    target,
    reason: input.alreadyApplied?.has(target)
      ? "already applied"
      : "no changes",
  }));
}

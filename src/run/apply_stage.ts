/**
 * The apply stage of a job's pass (SPEC.md §4.7, §10), after the claim stage:
 * runs the apply command of each run the claim let through (one per run, up to
 * `parallel` at once, or one `applyWave` for all, `apply_runs.ts`), records each
 * claimed run's outcome in the ledger as soon as its command ends, so a failed
 * run may be claimed again under the same approval and an applied one never
 * is, and ends with what failed, moved, was left untried and skipped, and the
 * summary table. `applyPass` is the end of every pass: the before-apply hooks,
 * the claim, the applies; a freeze window that began since the job decided
 * (SPEC.md §19) starts no further run, and the pass waits (exit 3) for it.
 * @module
 */

import type { FreezeHold } from "../gate/freeze_hold.ts";
import { recordWait } from "./record_wait.ts";
import { lineLog } from "../console/line_log.ts";
import { countOf } from "../count_of.ts";
import type { Decision, DecisionMember } from "../gate/decision.ts";
import type { JobResult, SkippedRun } from "../jobs/job_result.ts";
import type { OnFailure, Spec, Wave } from "../spec/types.ts";
import { failureMode } from "./failure_mode.ts";
import { applyCanaryFirst, type CanaryFirst } from "./canary_first.ts";
import { tableLines } from "../table.ts";
import { applyRuns, applyWholeWave } from "./apply_runs.ts";
import {
  type ClaimedRuns,
  claimStage,
  type ClaimStageOutcome,
  sayClaimedElsewhere,
} from "./claim_stage.ts";
import { WAITING } from "../exit_codes.ts";
import type { GateDecision } from "../gate/decide_gate.ts";
import {
  passApplied,
  type PassEnd,
  type PassRuns,
  stopWith,
} from "./replan_loop.ts";
import type { WaveJob } from "./wave_job.ts";
import {
  type ApplyOutcome,
  logFailures,
  type PlanContext,
  type PlannedRun,
} from "./run_outcomes.ts";
import { type RunIo, throwIfInterrupted } from "./run_io.ts";
import {
  type RunDurations,
  type SummaryInput,
  summaryRows,
} from "./summary_table.ts";
import { chunkRuns } from "../gate/claims.ts";
import { newRecord, newStamp, type SettledRun } from "../gate/records.ts";
import { ciContext } from "../ci/ci_context.ts";

/** What the apply stage did. */
export interface ApplyStageOutcome extends ApplyOutcome {
  /** Runs not applied on purpose: empty plans, plans applied already. */
  skipped: SkippedRun[];
  /** The freeze window that began since the decision and left runs untried. */
  held?: FreezeHold;
}

/** The apply stage's input. */
export interface ApplyStageInput {
  spec: Spec;
  wave: Wave;
  decision: Decision;
  /** The pass's runs not applied in an earlier pass (for the summary). */
  planned: readonly PlannedRun[];
  /** The empty ones among them, skipped. */
  empty: readonly SkippedRun[];
  /** What the claim stage let through, skipped and refused. */
  claim: ClaimStageOutcome;
  context: Omit<PlanContext, "discover">;
  /** The `--ledger` argument printed commands need, when not the default. */
  ledgerArg?: string;
  /** Whether the gate is `sealed` (a printed approve command then signs). */
  sealed: boolean;
  /** The job's runs refused (plan moved) and failed to plan, for the summary. */
  notApplied?: Pick<SummaryInput, "moved" | "unplanned">;
  /** The wave's canary, when one is read at base and some run is to apply (SPEC.md §19). */
  canary?: CanaryFirst;
  /**
   * Asked before each run's apply starts (SPEC.md §19): a freeze window that
   * began since the job decided, when nothing let the plans through it. Runs
   * not started then are left untried, and the pass waits.
   */
  holdStarts?: () => FreezeHold | undefined;
}

/** What the end of one pass applies (see {@linkcode applyPass}). */
export interface PassApply {
  /** The pass's runs, as `passRuns` sorted them. */
  todo: PassRuns;
  /** The runs the before-apply hooks are told of. */
  planned: readonly PlannedRun[];
  /** The pass's plans, for the hooks' `{plans}`. */
  members: DecisionMember[];
  /** The job's result so far. */
  result: JobResult;
  decision: Decision;
  /** Whether the gate is `sealed`. */
  sealed: boolean;
  /** The gate the pass claims under, asked after the hooks ran. */
  gate(): Promise<GateDecision | undefined> | GateDecision | undefined;
  /** The job's runs refused (plan moved) and failed to plan, for the summary. */
  notApplied?: ApplyStageInput["notApplied"];
  /** The wave's canary: its runs apply first. */
  canary?: CanaryFirst;
  /** Asked before each run's apply starts (see {@linkcode ApplyStageInput.holdStarts}). */
  holdStarts?: () => FreezeHold | undefined;
}

/**
 * The end of a pass of a whole-wave, share or group job (SPEC.md §10, §11):
 * the before-apply hooks, the claim under the gate, the applies, and whether
 * an apply asked for a new plan.
 * @param job The wave job.
 * @param pass What the pass applies.
 * @returns How the pass ends.
 * @throws {OutcomeError} When interrupted (130/143), after recording the outcomes.
 */
export async function applyPass(
  job: WaveJob,
  pass: PassApply,
): Promise<PassEnd> {
  const { input, wave, io } = job;
  const { todo, members, decision } = pass;
  const stop = await job.hooks.run("before-apply", {
    runs: pass.planned.map((p) => p.run),
    members,
  });
  if (stop) return stopWith({ ...pass.result, ...stop });
  const claim = await claimStage(todo.runs, await pass.gate(), decision, io);
  if (claim === "waiting") return stopWith(pass.result, WAITING);
  const applied = await applyStage({
    spec: input.spec,
    wave,
    decision,
    planned: todo.fresh,
    empty: todo.empty,
    claim,
    context: job.context,
    ...(input.ledgerArg === undefined ? {} : { ledgerArg: input.ledgerArg }),
    sealed: pass.sealed,
    ...(pass.notApplied ? { notApplied: pass.notApplied } : {}),
    ...(pass.canary ? { canary: pass.canary } : {}),
    ...(pass.holdStarts ? { holdStarts: pass.holdStarts } : {}),
  }, io);
  const passed = passApplied(
    pass.result,
    applied,
    { earlier: todo.earlier, members },
    io.stderr,
  );
  const canaries = new Set(pass.canary?.canary.targets ?? []);
  // A canary that asked for a new plan did not apply as planned: it failed,
  // and the job plans nothing again in which another run could take its place.
  const asked = applied.replan.filter((target) => canaries.has(target));
  const canaryFailed = [
    ...[...applied.failed, ...applied.moved].map(({ target }) => target)
      .filter((target) => canaries.has(target)),
    ...asked,
  ];
  if (asked.length > 0 && passed.end === "applied") {
    lineLog(io.stderr)(
      `canary: ${asked.join(", ")} asked for a new plan, so ${
        asked.length === 1 ? "it" : "they"
      } did not apply as planned: the job plans nothing again; fix it and run it again`,
    );
    return {
      ...passed,
      replan: [],
      result: {
        ...passed.result,
        failed: [...passed.result.failed, ...asked],
        canaryFailed,
      },
    };
  }
  const ended = canaryFailed.length === 0
    ? passed
    : { ...passed, result: { ...passed.result, canaryFailed } };
  if (applied.held === undefined) return ended;
  const waits = `wave ${wave.k} "${wave.name}" waits: ${applied.held.line}`;
  lineLog(io.stderr)(
    `${waits}; not started: ${applied.untried.join(", ")}`,
  );
  if (applied.held.until !== undefined) {
    await recordWait(
      input.spec,
      {
        k: wave.k,
        head: job.base.head,
        why: "freeze",
        until: applied.held.until,
      },
      input,
      io,
    );
  }
  return stopWith({ ...ended.result, waitsFor: [waits] }, WAITING);
}

/**
 * Applies the runs the claim stage let through.
 * @throws {OutcomeError} When interrupted (130/143), after recording the outcomes.
 * @throws {Error} When an outcome cannot be recorded.
 */
async function applyStage(
  input: ApplyStageInput,
  io: RunIo,
): Promise<ApplyStageOutcome> {
  const { decision, claim } = input;
  const log = lineLog(io.stderr);
  const runs = claim.won;
  const outcomes = claim.claimed
    ? outcomeWriter(claim.claimed, decision, io)
    : undefined;
  // By target in a null-prototype object rather than a map: kept until the
  // summary, 32 bytes a run under bun instead of 113.
  const took: Record<string, number> = Object.create(null);
  let settled = 0;
  const mode = failureMode(input.wave.onFailure, runs.map((run) => run.plan));
  if (mode.because && input.spec.apply.kind !== "whole-wave") {
    log(`onFailure: ${mode.onFailure} (${mode.because})`);
  }
  // A freeze window that began since the decision starts no further run.
  let held: FreezeHold | undefined;
  const mayStart = input.holdStarts &&
    (() => (held ??= input.holdStarts!()) === undefined);
  const applyThese = (these: readonly PlannedRun[]) =>
    applyCommands(
      input,
      these,
      mode.onFailure,
      mayStart,
      io,
      (target, ok, durationMs) => {
        outcomes?.settle(target, ok);
        took[target] = durationMs ?? 0;
        settled++;
        if (runs.length >= PROGRESS_FROM) {
          log(
            `[${settled}/${runs.length}] ${target}: ${
              ok ? "applied" : "failed"
            }`,
          );
        }
      },
    );
  const { heldBack, ...applied } = input.canary
    ? await applyCanaryFirst(
      input.canary,
      runs,
      claim.refused,
      applyThese,
      log,
    )
    : { ...await applyThese(runs), heldBack: [] };
  if (outcomes) {
    for (const target of applied.untried) outcomes.settle(target, false);
    await outcomes.drain();
  }
  throwIfInterrupted(io);
  const failed = [...claim.refused, ...applied.failed];
  logFailures(failed, io.stderr);
  for (const { message } of applied.moved) log(`moved: ${message}`);
  if (claim.elsewhere) {
    sayClaimedElsewhere(claim.elsewhere, decision, {
      ...(input.ledgerArg === undefined ? {} : { ledgerArg: input.ledgerArg }),
      sealed: input.sealed,
    }, io);
  }
  const done = {
    ...applied,
    failed,
    skipped: [...input.empty, ...claim.skipped],
    ...(held && applied.untried.length > 0 ? { held } : {}),
  };
  // The steps' leftovers are freed before the summary builds a row per run.
  io.pacer?.settle(input.planned.length);
  logEnd(input, done, heldBack, { get: (target) => took[target] }, io);
  return done;
}

/**
 * Runs the spec's apply command over the runs: one `applyWave` for all, or
 * one per run (a tool's apply, with `tool`, stopping after a failure when
 * `onFailure` says so); tells `onSettled` each run's outcome as soon as its
 * command ended.
 */
async function applyCommands(
  input: ApplyStageInput,
  runs: readonly PlannedRun[],
  onFailure: OnFailure,
  mayStart: (() => boolean) | undefined,
  io: RunIo,
  onSettled: (target: string, ok: boolean, durationMs?: number) => void,
): Promise<ApplyOutcome> {
  const { spec, wave, context } = input;
  const command = spec.apply;
  if (command.kind !== "whole-wave") {
    return await applyRuns(
      command,
      wave,
      onFailure,
      runs,
      context,
      io,
      onSettled,
      mayStart,
    );
  }
  if (mayStart && !mayStart()) {
    return {
      applied: [],
      failed: [],
      untried: runs.map((run) => run.target),
      replan: [],
      moved: [],
    };
  }
  const outcome = await applyWholeWave(spec, command, wave, runs, context, io);
  for (const target of outcome.applied) onSettled(target, true);
  for (const { target } of outcome.failed) onSettled(target, false);
  for (const target of outcome.replan) onSettled(target, false);
  return outcome;
}

/**
 * The end of the stage's log: untried runs (those the canary held back it
 * named already), skipped runs, the summary table.
 */
function logEnd(
  input: ApplyStageInput,
  done: ApplyStageOutcome,
  heldBack: readonly string[],
  durations: RunDurations,
  io: RunIo,
): void {
  const { wave } = input;
  const log = lineLog(io.stderr);
  const held = new Set(heldBack);
  const untried = done.untried.filter((target) => !held.has(target));
  if (untried.length && done.held === undefined) {
    log(`untried after a failure (onFailure: stop): ${untried.join(", ")}`);
  }
  for (const { target, reason } of done.skipped) {
    log(`skipped: ${target}: ${reason}`);
  }
  const { moved = [], unplanned = [] } = input.notApplied ?? {};
  if (input.planned.length + moved.length + unplanned.length > 0) {
    const rows = summaryRows({
      planned: input.planned,
      outcome: done,
      durations,
      moved,
      unplanned,
    });
    log(`summary of wave ${wave.k} "${wave.name}":`);
    const widths = rows.widths();
    // What indexing the table's runs left is freed before its lines.
    io.pacer?.settle(input.planned.length);
    for (const line of tableLines(rows, widths)) log(`  ${line}`);
  }
  log(
    `applied ${
      countOf(done.applied.length, "run")
    } of wave ${wave.k} "${wave.name}"`,
  );
}

/** From this many runs on, a job prints a progress line as each run ends. */
const PROGRESS_FROM = 10;

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
 */
function outcomeWriter(
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

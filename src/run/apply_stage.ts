/**
 * The apply stage shared by whole-wave, share and group jobs (SPEC.md §4.7, §10):
 * empty plans are skipped (nothing to apply); under an approval, the gate is read
 * again, plans already applied under it are skipped, the rest are claimed in the
 * ledger (of jobs racing for one plan exactly one wins), the won ones applied and
 * every outcome recorded, so a failed run may be retried under the same approval
 * and an applied one never applies twice.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { lineLog, terminalLog } from "../console/line_log.ts";
import { approveCommand } from "../ledger/gate_messages.ts";
import { chunkRuns } from "../ledger/chunk_runs.ts";
import type { ClaimLedger } from "../ledger/claims.ts";
import { randomHex } from "../ledger/random_hex.ts";
import {
  type ClaimedRun,
  newRecord,
  newStamp,
  type SettledRun,
} from "../ledger/records.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { applyRuns } from "./apply_runs.ts";
import { ciContext } from "./ci_context.ts";
import type { Decision } from "./decision.ts";
import type { GateJudge } from "./gate_rules.ts";
import { logFailures, type SkippedRun } from "./job_result.ts";
import type { ApplyOutcome, PlanContext, PlannedRun } from "./run_outcomes.ts";
import { readGate } from "./read_gate.ts";
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
  const { spec, wave, decision, planned } = input;
  const log = lineLog(io.stderr);
  const skipped: SkippedRun[] = planned.filter((run) => run.plan.empty)
    .map(({ target }) => ({ target, reason: "no changes" }));
  let runs = planned.filter((run) => !run.plan.empty);
  const failedToClaim: ApplyOutcome["failed"] = [];
  let claimed: Claimed | undefined;
  let claimedElsewhere = 0;
  if (input.gated && runs.length > 0) {
    const gate = await readGate(spec.name, decision.gate, {
      digest: decision.digest,
      members: decision.members,
      judge: input.judge,
    }, io);
    if (gate.decision.status === "waiting") {
      log(
        `gate ${decision.gate}: the approval no longer stands for this decision; nothing applied`,
      );
      for (const reason of gate.decision.reasons) log(`  ${reason}`);
      return "waiting";
    }
    const { approval } = gate.decision;
    const sorted = await claim(runs, gate.decision.claims, input, io);
    skipped.push(...sorted.skipped);
    failedToClaim.push(...sorted.refused);
    claimedElsewhere = sorted.elsewhere;
    runs = sorted.won;
    claimed = {
      approvalId: approval.id,
      attemptId: sorted.attemptId,
      runs: sorted.attempts,
    };
  }
  const outcomes = claimed ? outcomeWriter(claimed, input, io) : undefined;
  const durations = new Map<string, number>();
  const total = runs.length;
  const applied = await applyRuns(
    spec,
    wave,
    runs,
    input.context,
    io,
    (target, ok, durationMs) => {
      outcomes?.settle(target, ok);
      durations.set(target, durationMs ?? 0);
      if (total >= PROGRESS_FROM) {
        log(
          `[${durations.size}/${total}] ${target}: ${
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
  const failed = [...failedToClaim, ...applied.failed];
  logFailures(failed, io.stderr);
  for (const { message } of applied.moved) log(`moved: ${message}`);
  if (claimedElsewhere > 0) {
    terminalLog(io.stderr, io.env)(
      styledLead(
        `if that job died, then approve: ${
          approveCommand(spec.name, decision.gate, decision.digest, {
            ...(input.ledgerArg === undefined
              ? {}
              : { ledger: input.ledgerArg }),
            sign: input.judge.rules.mode === "sealed",
          })
        }`,
      ),
    );
  }
  if (applied.untried.length) {
    log(
      `untried after a failure (onFailure: stop): ${
        applied.untried.join(", ")
      }`,
    );
  }
  for (const { target, reason } of skipped) {
    log(`skipped: ${target}: ${reason}`);
  }
  const done = { ...applied, failed, skipped };
  const rows = summaryRows({
    planned,
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
      countOf(applied.applied.length, "run")
    } of wave ${wave.k} "${wave.name}"`,
  );
  return done;
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
  const skipped: SkippedRun[] = input.planned.filter((run) => run.plan.empty)
    .map(({ target }) => ({ target, reason: "no changes" }));
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

/** The plans this job attempt won under an approval, by target. */
interface Claimed {
  approvalId: string;
  /** The job attempt that claimed them (SPEC.md §10). */
  attemptId: string;
  runs: Map<string, ClaimedRun>;
}

/**
 * Sorts the runs by where they stand under the approval, then claims the ones
 * that may apply, naming a fresh job attempt, and keeps those this attempt won:
 * another job holding the same decision record (a re-run, a copied artifact)
 * claims under another attempt, so of the two exactly one applies.
 */
async function claim(
  runs: readonly PlannedRun[],
  before: ClaimLedger,
  input: ApplyStageInput,
  io: RunIo,
): Promise<{
  won: PlannedRun[];
  skipped: SkippedRun[];
  refused: ApplyOutcome["failed"];
  attempts: Map<string, ClaimedRun>;
  /** How many of the refused are claimed by another job with no outcome. */
  elsewhere: number;
  attemptId: string;
}> {
  const { decision } = input;
  const attemptId = randomHex(16);
  const skipped: SkippedRun[] = [];
  const refused: ApplyOutcome["failed"] = [];
  const wanted: { run: PlannedRun; claimed: ClaimedRun }[] = [];
  for (const run of runs) {
    const plan = { target: run.target, planDigest: run.plan.planDigest };
    const standing = before.standing(plan);
    if (standing.kind === "applied") {
      skipped.push({ target: run.target, reason: "already applied" });
    } else if (standing.kind === "unsettled") {
      refused.push(claimedElsewhere(run.target, standing));
    } else {
      wanted.push({ run, claimed: { ...plan, attempt: standing.attempt } });
    }
  }
  if (wanted.length === 0) {
    return {
      won: [],
      skipped,
      refused,
      attempts: new Map(),
      elsewhere: refused.length,
      attemptId,
    };
  }
  const runId = ciContext(io.env).runId;
  const after = await io.ledger.claimRuns(newRecord("claim", {
    name: decision.name,
    gate: decision.gate,
    approvalId: before.approvalId,
    decisionId: decision.decisionId,
    attemptId,
    runs: wanted.map((w) => w.claimed),
    ...(runId ? { runId } : {}),
  }, newStamp(io.clock)));
  const won: PlannedRun[] = [];
  const attempts = new Map<string, ClaimedRun>();
  let elsewhere = refused.length;
  for (const { run, claimed } of wanted) {
    const standing = after.standing(claimed);
    if (
      standing.kind === "unsettled" &&
      standing.decisionId === decision.decisionId &&
      standing.attemptId === attemptId &&
      standing.attempt === claimed.attempt
    ) {
      won.push(run);
      attempts.set(run.target, claimed);
    } else if (standing.kind === "applied") {
      skipped.push({ target: run.target, reason: "already applied" });
    } else if (standing.kind === "unsettled") {
      refused.push(claimedElsewhere(run.target, standing));
      elsewhere++;
    } else {
      refused.push({
        target: run.target,
        message:
          `${run.target}: its claim under this approval was not recorded; run the job again`,
        tail: [],
      });
    }
  }
  return { won, skipped, refused, attempts, elsewhere, attemptId };
}

function claimedElsewhere(
  target: string,
  standing: { decisionId: string; claimedAt: string; claimId: string },
): ApplyOutcome["failed"][number] {
  return {
    target,
    message:
      `${target}: already claimed under this approval by decision ${standing.decisionId} ` +
      `(claim ${standing.claimId} at ${standing.claimedAt}, no outcome yet); ` +
      `if that job died, approve the plan again`,
    tail: [],
  };
}

/** Records claimed runs' outcomes while the job goes on. */
interface OutcomeWriter {
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
 * records, and a job that dies loses only the outcomes not yet written.
 */
function outcomeWriter(
  claimed: Claimed,
  input: ApplyStageInput,
  io: RunIo,
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
        name: input.decision.name,
        gate: input.decision.gate,
        approvalId: claimed.approvalId,
        decisionId: input.decision.decisionId,
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

/**
 * Counts a noun: `1 run`, `2 runs`.
 * @param count How many.
 * @param noun The noun, singular.
 * @returns The count and the noun.
 * @example
 * ```ts
 * countOf(1, "run"); // "1 run"
 * ```
 */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

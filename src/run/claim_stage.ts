/**
 * The claim stage of a job's pass (SPEC.md §10), before anything applies: with
 * no approval needed every run goes on; under the approval the gate stands on
 * (as the job read and decided it, once, before the pass), it sorts the runs by
 * where they stand (applied already, claimed with no outcome, free to claim),
 * claims the free ones in the ledger under a fresh job attempt, and keeps those
 * this attempt won; of jobs racing for one plan exactly one wins. Also what a
 * job says about plans another job claimed with no outcome. Applying the won
 * runs and recording their outcomes is the apply stage's.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { lineLog, terminalLog } from "../console/line_log.ts";
import type { GateApproved, GateDecision } from "../gate/decide_gate.ts";
import { approveCommand } from "../gate/gate_messages.ts";
import { tallyLine } from "../gate/gate_tally.ts";
import { randomHex } from "../gate/random_hex.ts";
import type { RunStanding } from "../gate/claims.ts";
import { type ClaimedRun, newRecord, newStamp } from "../gate/records.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { Decision } from "../gate/decision.ts";
import type { SkippedRun } from "../jobs/job_result.ts";
import type { FailedRun, PlannedRun } from "./run_outcomes.ts";
import type { RunIo } from "./run_io.ts";

/** The plans one job attempt won under an approval, by target. */
export interface ClaimedRuns {
  approvalId: string;
  /** The job attempt that claimed them (SPEC.md §10). */
  attemptId: string;
  runs: Map<string, ClaimedRun>;
}

/** What the claim stage gives the apply stage. */
export interface ClaimStageOutcome {
  /** The runs that apply: those this attempt won, or every run when none needed a claim. */
  won: PlannedRun[];
  /** Runs applied already under the approval. */
  skipped: SkippedRun[];
  /** Runs not claimed: claimed by another job with no outcome, or not recorded. */
  refused: FailedRun[];
  /** The claim, when the runs needed one: the outcome writer records against it. */
  claimed?: ClaimedRuns;
  /**
   * The gate as it stood approved, when another job claimed some of the runs
   * with no outcome (for what the job then says of them).
   */
  elsewhere?: GateApproved;
}

/**
 * Claims the runs of a pass that may apply. Without an approval to claim under
 * (none needed, or no run to claim) every run goes on unclaimed. When the gate
 * does not stand approved for the decision (an approval revoked since the
 * decision, for a share job), nothing applies: the stage logs why and says
 * `waiting`. Otherwise it claims, naming a fresh job attempt, and keeps the runs
 * this attempt won: another job holding the same decision record (a re-run, a
 * copied artifact) claims under another attempt, so of the two exactly one
 * applies.
 * @param runs The non-empty runs to apply.
 * @param gate The gate as the job decided it for the decision; `undefined`
 *   when the decision needs no approval.
 * @param decision The decision the job applies.
 * @param io The ledger (one claim record is written), the environment, the clock, the log.
 * @returns The runs that apply, the skipped, the refused, and the claim; or
 *   `waiting`.
 * @throws {Error} When the claim cannot be recorded.
 */
export async function claimStage(
  runs: readonly PlannedRun[],
  gate: GateDecision | undefined,
  decision: Decision,
  io: RunIo,
): Promise<ClaimStageOutcome | "waiting"> {
  if (gate === undefined || runs.length === 0) {
    return { won: [...runs], skipped: [], refused: [] };
  }
  if (gate.status === "waiting") {
    const log = lineLog(io.stderr);
    log(
      `gate ${decision.gate}: the approval no longer stands for this decision; nothing applied`,
    );
    for (const reason of gate.reasons) log(`  ${reason}`);
    return "waiting";
  }
  const { elsewhere, ...claimed } = await claimUnder(runs, gate, decision, io);
  return elsewhere > 0 ? { ...claimed, elsewhere: gate } : claimed;
}

/** What a claim under an approval found, before the stage names the gate. */
type Claimed = Required<Omit<ClaimStageOutcome, "elsewhere">> & {
  /** How many runs another job claimed with no outcome. */
  elsewhere: number;
};

/**
 * Sorts the runs by where they stand under the approval, claims the free ones
 * and keeps the won ones.
 */
async function claimUnder(
  runs: readonly PlannedRun[],
  gate: GateApproved,
  decision: Decision,
  io: RunIo,
): Promise<Claimed> {
  const before = gate.claims;
  const claimed: ClaimedRuns = {
    approvalId: before.approvalId,
    attemptId: randomHex(16),
    runs: new Map(),
  };
  const found: Claimed = {
    won: [],
    skipped: [],
    refused: [],
    claimed,
    elsewhere: 0,
  };
  const wanted: { run: PlannedRun; claimed: ClaimedRun }[] = [];
  for (const run of runs) {
    const plan = { target: run.target, planDigest: run.plan.planDigest };
    const standing = before.standing(plan);
    if (standing.kind === "left" || standing.kind === "failed") {
      wanted.push({ run, claimed: { ...plan, attempt: standing.attempt } });
    } else sortTaken(found, run.target, standing);
  }
  if (wanted.length === 0) return found;
  const runId = ciContext(io.env).runId;
  // The ledger is read back after the claim is written (inside claimRuns):
  // that read judges the race, since of claims of one plan and attempt the
  // first in the ledger wins, whatever this job saw before.
  const after = await io.ledger.claimRuns(newRecord("claim", {
    name: decision.name,
    gate: decision.gate,
    approvalId: before.approvalId,
    decisionId: decision.decisionId,
    attemptId: claimed.attemptId,
    runs: wanted.map((w) => w.claimed),
    ...(runId ? { runId } : {}),
  }, newStamp(io.clock)));
  for (const { run, claimed: plan } of wanted) {
    const standing = after.standing(plan);
    if (
      standing.kind === "unsettled" &&
      standing.decisionId === decision.decisionId &&
      standing.attemptId === claimed.attemptId &&
      standing.attempt === plan.attempt
    ) {
      found.won.push(run);
      claimed.runs.set(run.target, plan);
    } else sortTaken(found, run.target, standing);
  }
  return found;
}

/**
 * Files a run this attempt may not apply: applied already (skipped), claimed
 * by another job with no outcome, or (a claim that did not win and left no
 * trace) not recorded.
 */
function sortTaken(
  found: Claimed,
  target: string,
  standing: RunStanding,
): void {
  if (standing.kind === "applied") {
    found.skipped.push({ target, reason: "already applied" });
  } else if (standing.kind === "unsettled") {
    found.refused.push(claimedElsewhere(target, standing));
    found.elsewhere++;
  } else {
    found.refused.push({
      target,
      message:
        `${target}: its claim under this approval was not recorded; run the job again`,
      tail: [],
    });
  }
}

function claimedElsewhere(
  target: string,
  standing: { decisionId: string; claimedAt: string; claimId: string },
): FailedRun {
  return {
    target,
    message:
      `${target}: already claimed under this approval by decision ${standing.decisionId} ` +
      `(claim ${standing.claimId} at ${standing.claimedAt}, no outcome yet); ` +
      `if that job died, approve the plan again`,
    tail: [],
  };
}

/**
 * Says how to move on plans another job claimed with no outcome: under
 * approver rules, how far fresh approvals of them are (§12.1: the approvals
 * used for them count no more), then the command that approves the plan
 * again, for when that job died.
 * @param gate The gate as it stood approved.
 * @param decision The decision.
 * @param how The `--ledger` argument printed commands need, and whether the
 *   gate is sealed (the command then signs).
 * @param io The log and the environment.
 */
export function sayClaimedElsewhere(
  gate: Pick<GateApproved, "stuck" | "tally">,
  decision: Pick<Decision, "name" | "gate" | "digest">,
  how: { ledgerArg?: string; sealed: boolean },
  io: Pick<RunIo, "stderr" | "env">,
): void {
  if (gate.stuck && gate.stuck.required > 1) {
    lineLog(io.stderr)(
      `  to claim it again: ${tallyLine(gate.stuck, decision.digest)}`,
    );
  }
  terminalLog(io.stderr, io.env)(
    styledLead(
      `if that job died, then approve: ${
        approveCommand(decision.name, decision.gate, decision.digest, {
          ...(how.ledgerArg === undefined ? {} : { ledger: how.ledgerArg }),
          sign: how.sealed,
        })
      }`,
    ),
  );
}

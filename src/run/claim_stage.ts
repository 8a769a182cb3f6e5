/**
 * The claim step of the apply stage (SPEC.md §10): under the approval the gate
 * stands on, sorts a job's runs by where they stand (applied already, claimed
 * with no outcome, free to claim), claims the free ones in the ledger under a
 * fresh job attempt, and keeps those this attempt won; of jobs racing for one
 * plan exactly one wins. Also what a job says about plans another job claimed
 * with no outcome. Applying the won runs and recording their outcomes is the
 * apply stage's.
 * @module
 */

import { styledLead } from "../console/colour.ts";
import { lineLog, terminalLog } from "../console/line_log.ts";
import type { GateApproved } from "../ledger/decide_gate.ts";
import { approveCommand } from "../ledger/gate_messages.ts";
import { tallyLine } from "../ledger/gate_tally.ts";
import { randomHex } from "../ledger/random_hex.ts";
import { type ClaimedRun, newRecord, newStamp } from "../ledger/records.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { Decision } from "../jobs/decision.ts";
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

/** What the claim step gives the apply step. */
export interface ClaimStageOutcome {
  /** The runs this attempt won: they apply. */
  won: PlannedRun[];
  /** Runs applied already under the approval. */
  skipped: SkippedRun[];
  /** Runs not claimed: claimed by another job with no outcome, or not recorded. */
  refused: FailedRun[];
  /** How many of the refused another job claimed with no outcome. */
  elsewhere: number;
  claimed: ClaimedRuns;
}

/**
 * Sorts the runs by where they stand under the approval, then claims the ones
 * that may apply, naming a fresh job attempt, and keeps those this attempt won:
 * another job holding the same decision record (a re-run, a copied artifact)
 * claims under another attempt, so of the two exactly one applies.
 * @param runs The non-empty runs to apply.
 * @param gate The gate as it stands approved for the decision.
 * @param decision The decision the job applies.
 * @param io The ledger (one claim record is written), the environment, the clock.
 * @returns The won runs, the skipped, the refused, and the claim.
 * @throws {Error} When the claim cannot be recorded.
 */
export async function claimStage(
  runs: readonly PlannedRun[],
  gate: GateApproved,
  decision: Decision,
  io: RunIo,
): Promise<ClaimStageOutcome> {
  const before = gate.claims;
  const attemptId = randomHex(16);
  const skipped: SkippedRun[] = [];
  const refused: FailedRun[] = [];
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
  const claimed: ClaimedRuns = {
    approvalId: before.approvalId,
    attemptId,
    runs: new Map(),
  };
  const sorted = { won: [], skipped, refused, elsewhere: refused.length };
  if (wanted.length === 0) return { ...sorted, claimed };
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
  let elsewhere = refused.length;
  for (const { run, claimed: plan } of wanted) {
    const standing = after.standing(plan);
    if (
      standing.kind === "unsettled" &&
      standing.decisionId === decision.decisionId &&
      standing.attemptId === attemptId &&
      standing.attempt === plan.attempt
    ) {
      won.push(run);
      claimed.runs.set(run.target, plan);
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
  return { won, skipped, refused, elsewhere, claimed };
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

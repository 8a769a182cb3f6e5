/**
 * The review stage of a whole-wave or deciding job (SPEC.md §12, §13): when the
 * wave's approval mode at base is `forge`, its plans need an approval and no
 * confirmed or sealed approval covers them yet, it asks the forge whether the
 * merged pull request's review approves them (`reviewApproval`), which records
 * the review's approvals in the ledger; the decide stage then counts them once
 * the gate's judge has confirmed them through the forge. A refusal is printed
 * and changes nothing else. It decides nothing itself, but hands the gate it
 * read to the decide stage when it recorded nothing since, so the gate is read
 * once.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { setDigest } from "../digest/set_digest.ts";
import { needsApproval, type PolicyAtBase } from "../gate/policy_at_base.ts";
import type { ReviewAsker } from "../review/ask_review.ts";
import { reviewApproval } from "../review/review_approval.ts";
import type { Spec, Wave } from "../spec/types.ts";
import { gateName } from "../gate/gate_messages.ts";
import { membersOf } from "./decide_wave.ts";
import type { GateJudge } from "../base/gate_rules.ts";
import { type GateRead, readGate } from "../ledger/read_gate.ts";
import type { PlannedRun } from "./run_outcomes.ts";
import { plansLiveState } from "../spec/command_types.ts";
import type { RunIo } from "./run_io.ts";

/** What the review stage looks at: the planned wave and its rules at base. */
export interface ReviewStageInput {
  spec: Pick<Spec, "name" | "gate" | "plan">;
  wave: Pick<Wave, "k" | "name">;
  /** The wave's runs, planned. */
  planned: readonly PlannedRun[];
  /** The policy at base. */
  policy: Pick<PolicyAtBase, "policy">;
  /** The approval rules at base (their mode) and the judge of the gate. */
  judge: GateJudge;
  /** The job's review asker (shared with the judge's confirmer). */
  review: ReviewAsker;
  /** A dry run records nothing, so it does not ask. */
  dryRun: boolean;
}

/**
 * Asks the forge for a review approval when the wave's gate is `forge` at base
 * and nothing approves its plans yet; logs the approval it recorded (`gate
 * <gate>: approved by the review of #<pr> at <head12>: <who>`) or why the
 * review does not approve (`gate <gate>: no review approval: <reason>`). A dry
 * run only says that it did not ask.
 * @param input The planned wave, its policy, rules and review asker, whether a dry run.
 * @param io The edges (the ledger, the environment with the forge's variables).
 * @returns The gate as read, when the stage read it and recorded nothing
 *   since (it approves already, or the review does not); otherwise nothing,
 *   and the decide stage reads the gate (again).
 * @throws {InputError} When a token variable or the forge API URL is malformed.
 * @throws {Error} When the ledger cannot be read or written.
 */
export async function reviewStage(
  input: ReviewStageInput,
  io: RunIo,
): Promise<GateRead | undefined> {
  if (input.judge.rules.mode !== "forge") return undefined;
  const members = membersOf(input.planned);
  if (!needsApproval(input.policy.policy, members).needed) return undefined;
  const gate = gateName(input.spec, input.wave.k);
  const log = lineLog(io.stderr);
  if (input.dryRun) {
    log(`gate ${gate}: a dry run does not ask the forge for a review approval`);
    return undefined;
  }
  const digest = setDigest(members);
  const now = await readGate(input.spec.name, gate, {
    digest,
    members,
    judge: input.judge,
    liveState: plansLiveState(input.spec.plan),
    wave: input.wave.name,
  }, io);
  if (now.decision.status === "approved") return now;
  const outcome = await reviewApproval(
    {
      name: input.spec.name,
      gate,
      wave: { k: input.wave.k, name: input.wave.name },
      digest,
      members,
    },
    input.review,
    io,
  );
  if ("refused" in outcome) {
    log(`gate ${gate}: no review approval: ${outcome.refused}`);
    return now;
  }
  const notes = new Set(outcome.approved.map((approval) => approval.note));
  for (const note of notes) if (note) log(`gate ${gate}: ${note}`);
  return undefined;
}

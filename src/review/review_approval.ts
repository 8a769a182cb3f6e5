/**
 * The review approval of a `forge` gate (SPEC.md §13), for the job on the
 * merged commit: when the forge's answer (`ask_review.ts`) is an approving
 * review and the plans handed over for its head give the wave the digest it
 * plans now, it writes ledger approvals naming the review, which the gate's
 * judge then confirms through the forge like any record naming a review.
 * Otherwise it says why not. It does not decide the gate.
 * A record naming a review counts when the forge shows, in this job, that the
 * pull request was merged as the commit, that the record's approver is a
 * writer whose standing review approves its head, and that the plans handed
 * over for that head give the wave exactly the record's digest.
 * @module
 */

import type { Clock } from "../clock.ts";
import type { Ledger } from "../ledger/ledger.ts";
import {
  type ApprovalRecord,
  approvalRecord,
  newStamp,
  type PlanPair,
} from "../gate/records.ts";
import { ciContext } from "../ci/ci_context.ts";
import type { ReviewAsker } from "./ask_review.ts";
import { checkRecordedPlans, recordedDigest } from "./check_recorded_plans.ts";
import { namedReview, reviewNote } from "./decide_review.ts";
import { countingApprovals } from "../gate/revoke_floor.ts";
import type { ActionKind, Confirmation } from "../gate/confirm_approvals.ts";

/** The wave whose gate a review may approve. */
export interface ReviewInput {
  /** The spec's `name`. */
  name: string;
  /** The wave's gate, `<gate>-wave-<k>`. */
  gate: string;
  /** The wave: its number and name. */
  wave: { k: number; name: string };
  /** The set digest the wave plans now (the decision's). */
  digest: string;
  /** The decision's members: kept as the plan set of `digest` (SPEC.md §10). */
  members: readonly PlanPair[];
}

/** The edges the approvals are written through. */
export interface ReviewIo {
  /** The gate ledger. */
  ledger: Ledger;
  /** The CI environment (the run's URL goes on the approvals). */
  env: Record<string, string | undefined>;
  /** Stamps the approvals. */
  clock: Pick<Clock, "now">;
}

/** The review approved (its approvals, one per approving writer) or why not. */
export type ReviewOutcome =
  | { approved: ApprovalRecord[] }
  | { refused: string };

/**
 * Approves a wave by the review of the pull request merged as the job's
 * commit, when the forge answers that the standing reviews of writers other
 * than the author approve its head and every hand-off for that head gives the
 * wave the digest it plans now. Then it writes the plan set of the digest and
 * one `approval` per approving writer (`by` their login, `note` `approved by
 * the review of #<pr> at <head12>: <approvers>`), unless an identical one
 * already counts. Otherwise it writes nothing and returns the reason: the
 * forge's refusal, no recorded plans, recorded plans that cannot be read or
 * disagree, or the plan moved after the review.
 * @param input The spec's name, the gate and wave, the digest and members.
 * @param ask The job's review asker.
 * @param io The ledger, CI environment and clock.
 * @returns The approvals that count for the digest, or the refusal reason.
 * @throws {InputError} When a token variable or the forge API URL is malformed.
 * @throws {Error} When the ledger cannot be written.
 */
export async function reviewApproval(
  input: ReviewInput,
  ask: ReviewAsker,
  io: ReviewIo,
): Promise<ReviewOutcome> {
  const answer = await ask();
  if ("refused" in answer) return answer;
  const { pull, approvers, claims } = answer.approved;
  const { name, gate, digest } = input;
  const moved = checkRecordedPlans({
    claims,
    pullRequest: pull.number,
    head: pull.headSha,
    wave: input.wave,
    digest,
  });
  if (moved !== undefined) return { refused: moved };
  const note = reviewNote(pull, approvers);
  const { records } = await io.ledger.readGate(name, gate);
  const standing = countingApprovals(records).filter((approval) =>
    approval.planDigest === digest && approval.note === note
  );
  const url = ciContext(io.env).runUrl;
  const approved: ApprovalRecord[] = [];
  let planSetWritten = false;
  for (const by of approvers) {
    const kept = standing.find((approval) => approval.by === by);
    if (kept !== undefined) {
      approved.push(kept);
      continue;
    }
    if (!planSetWritten) {
      await io.ledger.writePlanSet(name, gate, digest, input.members);
      planSetWritten = true;
    }
    const record = approvalRecord({
      name,
      gate,
      planDigest: digest,
      by,
      note,
      ...(url ? { url } : {}),
    }, newStamp(io.clock));
    await io.ledger.write(record);
    approved.push(record);
  }
  return { approved };
}

/**
 * The review kind of action, for one wave's gate.
 * @param ask The job's review asker (asked on the first approval naming a review).
 * @param wave The wave: its number and name (whose handed-over digest counts).
 * @returns The action kind.
 * @example
 * ```ts
 * const kind = reviewAction(reviewAsker({ name, commit }, io), { k: 1, name: "prod" });
 * await kind.confirm(plainApproval); // undefined: it names no review
 * ```
 */
export function reviewAction(
  ask: ReviewAsker,
  wave: { k: number; name: string },
): ActionKind {
  return {
    async confirm(approval) {
      const named = namedReview(approval.note);
      if (named === undefined) return undefined;
      return confirmReview(approval, named, await ask(), wave);
    },
  };
}

function confirmReview(
  approval: ApprovalRecord,
  named: { pullRequest: number; head12: string },
  answer: Awaited<ReturnType<ReviewAsker>>,
  wave: { k: number; name: string },
): Confirmation {
  const refused = (why: string): Confirmation => ({ confirmed: false, why });
  if ("refused" in answer) {
    return refused(`the forge does not confirm the review: ${answer.refused}`);
  }
  const { pull, approvers, claims } = answer.approved;
  const head12 = pull.headSha.slice(0, 12);
  if (named.pullRequest !== pull.number || named.head12 !== head12) {
    return refused(
      `it names the review of #${named.pullRequest} at ${named.head12}, but #${pull.number} at ${head12} made this commit`,
    );
  }
  const login = approvers.find((user) =>
    user.toLowerCase() === approval.by.toLowerCase()
  );
  if (login === undefined) {
    return refused(
      `the forge shows no approving review of #${pull.number} at ${head12} by ${approval.by} (it shows ${
        approvers.join(", ")
      })`,
    );
  }
  const recorded = recordedDigest({
    claims,
    pullRequest: pull.number,
    head: pull.headSha,
    wave,
  });
  if ("refused" in recorded) return refused(recorded.refused);
  if (recorded.digest !== approval.planDigest) {
    return refused(
      `it approves ${approval.planDigest}, but #${pull.number} at ${head12} recorded ${recorded.digest} for wave ${wave.k} "${wave.name}"`,
    );
  }
  return { confirmed: true, login };
}

/**
 * The merged pull request's review as an action the forge confirms (SPEC.md
 * §13): an approval record names it by its note (`approved by the review of
 * #<pr> at <head12>: …`, as the review stage writes it), and it counts when the
 * forge shows, in this job, that this pull request was merged as the commit,
 * that the record's approver is a writer whose standing review approves its
 * head, and that the plans handed over for that head give the wave exactly the
 * record's digest. Who wrote the record does not matter: it only points at
 * what the forge must confirm.
 * @module
 */

import type { ApprovalRecord } from "../gate/records.ts";
import type { ReviewAsker } from "./ask_review.ts";
import { recordedDigest } from "./check_recorded_plans.ts";
import type { ActionKind, Confirmation } from "../gate/confirm_approvals.ts";
import { namedReview } from "./decide_review.ts";

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

/**
 * The confirmer of the approve command (SPEC.md §13, §13.1): whether the
 * approval it just recorded will count, and whether to resume the job that
 * waits, are judged where nobody asks the forge, and the forge confirms an
 * approve run or job only once it finished, while the approve job is that very
 * run or job, still running. So here every approval that names a forge run or
 * job in `via` counts, provisionally, as its `by` (the rules still judge it:
 * `allowed`, `selfApproval`, distinct approvers), and the job that resumes
 * asks the forge about each for real; a Forgejo dispatch, which no job can
 * confirm, is refused as the job would refuse it. Every other unsigned
 * approval is refused: one naming a review because nobody asked the forge
 * here, one naming nothing because it never counts on a forge gate. Pure.
 * @module
 */

import { FORGEJO_TITLE, viaTarget } from "../forge/approve_action.ts";
import type { Forge } from "../forge/forges.ts";
import type { ApprovalRecord } from "../ledger/records.ts";
import { askedHidden } from "./click_action.ts";
import {
  type ApprovalConfirmer,
  type Confirmation,
  NAMES_NO_ACTION,
  NOT_ASKED_HERE,
} from "./confirm_approvals.ts";
import { namedReview } from "./decide_review.ts";

/**
 * Makes the approve command's confirmer.
 * @param forge The forge the command runs on, when in CI.
 * @returns The confirmer.
 * @example
 * ```ts
 * const confirmer = provisionalConfirmer("github");
 * (await confirmer.confirm([record], record.planDigest)).get(record.id);
 * // { confirmed: true, login: "ann" } when record.via names a run
 * ```
 */
export function provisionalConfirmer(
  forge: Forge | undefined,
): ApprovalConfirmer {
  const judge = (approval: ApprovalRecord): Confirmation => {
    if (approval.via === undefined) {
      return namedReview(approval.note) === undefined
        ? { confirmed: false, why: NAMES_NO_ACTION }
        : { confirmed: false, why: NOT_ASKED_HERE };
    }
    const target = viaTarget(approval.via);
    if (forge === "forgejo" && target?.kind === "run") {
      return { confirmed: false, why: askedHidden(target.id, FORGEJO_TITLE) };
    }
    return { confirmed: true, login: approval.by };
  };
  return {
    confirm: (approvals) =>
      Promise.resolve(new Map(approvals.map((a) => [a.id, judge(a)]))),
  };
}

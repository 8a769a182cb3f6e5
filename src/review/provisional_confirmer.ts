/**
 * The confirmer of the approve command (SPEC.md §13, §13.1): whether the
 * approval it just recorded will count, and whether to resume the job that
 * waits, are judged outside the gate's job, and the forge confirms an approve
 * run or job only once it finished, while the approve job is that very run or
 * job, still running. So the approval just recorded counts here,
 * provisionally, as its `by` when it names a forge run or job in `via` (the
 * rules still judge it: `allowed`, `selfApproval`, distinct approvers); the
 * gate's other approvals via a run or job are asked of the forge as the gate's
 * job asks (in CI, where the command has the forge's variables), and the job
 * that resumes confirms each for real. A Forgejo dispatch, which no job can
 * confirm, is refused as the job would refuse it. Every other unsigned
 * approval is refused: one naming a review because nobody asked the forge
 * here, one naming nothing because it never counts on a forge gate.
 * @module
 */

import { FORGEJO_TITLE } from "../forge/approve_action.ts";
import { clickForge } from "../forge/click_forge.ts";
import type { Forge } from "../ci/forges.ts";
import type { ApprovalRecord } from "../gate/records.ts";
import { ciContext } from "../ci/ci_context.ts";
import { askedHidden, clickAction } from "./click_action.ts";
import {
  type ActionKind,
  type ApprovalConfirmer,
  type Confirmation,
  NAMES_NO_ACTION,
  NOT_ASKED_HERE,
} from "../gate/confirm_approvals.ts";
import { namedReview } from "./decide_review.ts";
import { viaTarget } from "../gate/action_floor.ts";

/**
 * Makes the approve command's confirmer.
 * @param recorded The approval just recorded.
 * @param forge The forge the command runs on, when in CI.
 * @param ask Confirms the gate's other approvals via a run or job through the
 *   forge (absent: nobody asks the forge here).
 * @returns The confirmer.
 * @example
 * ```ts
 * const confirmer = provisionalConfirmer(record, "github");
 * (await confirmer.confirm([record], record.planDigest)).get(record.id);
 * // { confirmed: true, login: "ann" } when record.via names a run
 * ```
 */
export function provisionalConfirmer(
  recorded: ApprovalRecord,
  forge: Forge | undefined,
  ask?: ActionKind,
): ApprovalConfirmer {
  const judge = async (approval: ApprovalRecord): Promise<Confirmation> => {
    if (approval.via === undefined) {
      return namedReview(approval.note) === undefined
        ? { confirmed: false, why: NAMES_NO_ACTION }
        : { confirmed: false, why: NOT_ASKED_HERE };
    }
    if (approval.id !== recorded.id) {
      return await ask?.confirm(approval) ??
        { confirmed: false, why: NOT_ASKED_HERE };
    }
    const target = viaTarget(approval.via);
    if (forge === "forgejo" && target?.kind === "run") {
      return { confirmed: false, why: askedHidden(target.id, FORGEJO_TITLE) };
    }
    return { confirmed: true, login: approval.by };
  };
  return {
    async confirm(approvals) {
      const out = new Map<string, Confirmation>();
      for (const approval of approvals) {
        out.set(approval.id, await judge(approval));
      }
      return out;
    },
  };
}

/**
 * The approve command's confirmer in the CI job it runs in: its own approval
 * provisionally, the gate's others through the forge's API.
 * @param recorded The approval just recorded.
 * @param input The spec's name and the gate's wave (its name is needed on
 *   GitLab, whose approve job is named for it; empty when unknown).
 * @param env The environment (the forge, its API URL, token, pipeline).
 * @returns The confirmer.
 */
export function approveConfirmer(
  recorded: ApprovalRecord,
  input: { name: string; wave: { k: number; name: string } },
  env: Record<string, string | undefined>,
): ApprovalConfirmer {
  const forge = ciContext(env).forge;
  const ask = forge === undefined ? undefined : clickAction({
    name: input.name,
    wave: input.wave,
    ...(env.CI_PIPELINE_ID ? { pipelineId: env.CI_PIPELINE_ID } : {}),
    forge: () => clickForge(forge, env),
    sleep: (ms) => new Promise<void>((done) => setTimeout(done, ms)),
  });
  return provisionalConfirmer(recorded, forge, ask);
}

/**
 * The forge's side of one `forge` gate in one job (SPEC.md §12, §13): the
 * review asker the review stage takes the merged pull request's review from,
 * and the confirmer the gate's judge confirms unsigned approvals with, sharing
 * one answer from the forge. The list of action kinds is here: a new way of
 * approving on the forge is one more kind in it: the click path's approve
 * run or manual job (`click_action.ts`), then the review.
 * The approve command's confirmer is here too: the approval it just recorded
 * counts there provisionally, as its `by`, when it names a forge run or job in
 * `via` (the forge confirms a run or job only once it finished, and the
 * approve job is that very run, still running); the rules still judge it, and
 * the job that resumes confirms it for real.
 * @module
 */

import { defaultBranchName } from "../base/default_branch.ts";
import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { HttpDeps } from "../forge/forge_http.ts";
import { type ReviewAsker, reviewAsker } from "./ask_review.ts";
import {
  type ActionKind,
  type ApprovalConfirmer,
  approvalConfirmer,
  type Confirmation,
  NAMES_NO_ACTION,
  NOT_ASKED_HERE,
} from "../gate/confirm_approvals.ts";
import { reviewAction } from "./review_approval.ts";
import { askedHidden, clickAction } from "./click_action.ts";
import { clickForge } from "../forge/click_forge.ts";
import { ciContext } from "../ci/ci_context.ts";
import { FORGEJO_TITLE } from "../forge/approve_action.ts";
import type { Forge } from "../ci/forges.ts";
import type { ApprovalRecord } from "../gate/records.ts";
import { namedReview } from "./decide_review.ts";
import { viaTarget } from "../gate/action_floor.ts";

/** The review asker and the approval confirmer of one gate in one job. */
export interface ForgeConfirmations {
  /** Asks the forge for the merged pull request's review (once). */
  review: ReviewAsker;
  /** Confirms the gate's unsigned approvals through the forge. */
  confirmer: ApprovalConfirmer;
}

/** The gate the confirmations are for. */
export interface ConfirmationsInput {
  /** The spec's `name`. */
  name: string;
  /** The wave's gate, `<gate>-wave-<k>` (for the log). */
  gate: string;
  /** The wave: its number and name. */
  wave: { k: number; name: string };
  /** The commit the job runs at (full sha): the merged commit. */
  commit: string;
  /** `false` in a dry run: the forge is not asked, and nothing unsigned counts. */
  ask: boolean;
}

/** The edges: the CI environment, the log, and the forge client's HTTP deps. */
export interface ConfirmationsIo {
  /** Which forge, its API URL, the repository, the token. */
  env: Record<string, string | undefined>;
  /** Where refusals are said. */
  stderr: Writer;
  /** Fetch and limits of the forge client (tests). */
  http?: HttpDeps;
}

/**
 * Makes the forge confirmations of one gate in one job. Nothing is asked until
 * the review stage or the judge needs it.
 * @param input The spec's name, the gate and wave, the commit, whether to ask.
 * @param io The environment, the log and HTTP deps.
 * @returns The review asker and the confirmer.
 * @example
 * ```ts
 * const forge = forgeConfirmations({ name: "tf", gate: "tf-wave-1",
 *   wave: { k: 1, name: "prod" }, commit: head, ask: true }, io);
 * ```
 */
export function forgeConfirmations(
  input: ConfirmationsInput,
  io: ConfirmationsIo,
): ForgeConfirmations {
  const review = reviewAsker({ name: input.name, commit: input.commit }, io);
  const log = lineLog(io.stderr);
  const forge = ciContext(io.env).forge;
  const sleep = io.http?.sleep ??
    ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const click = clickAction({
    name: input.name,
    wave: input.wave,
    ...(io.env.CI_PIPELINE_ID ? { pipelineId: io.env.CI_PIPELINE_ID } : {}),
    forge: () =>
      forge === undefined
        ? { missing: "forge: not running in CI" }
        : clickForge(forge, io.env, io.http),
    sleep,
    defaultBranch: () => defaultBranchName(io.env),
  });
  return {
    review,
    confirmer: approvalConfirmer({
      kinds: [click, reviewAction(review, input.wave)],
      ...(input.ask
        ? {}
        : { notAsked: "a dry run does not ask the forge to confirm it" }),
      log: (line) => log(`gate ${input.gate}: ${line}`),
    }),
  };
}

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
    defaultBranch: () => defaultBranchName(env),
  });
  return provisionalConfirmer(recorded, forge, ask);
}

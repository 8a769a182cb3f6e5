/**
 * The forge's side of one `forge` gate in one job (SPEC.md §12, §13): the
 * review asker the review stage takes the merged pull request's review from,
 * and the confirmer the gate's judge confirms unsigned approvals with, sharing
 * one answer from the forge. The list of action kinds is here: a new way of
 * approving on the forge is one more kind in it: the click path's approve
 * run or manual job (`click_action.ts`), then the review.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import type { HttpDeps } from "../forge/forge_http.ts";
import { type ReviewAsker, reviewAsker } from "./ask_review.ts";
import {
  type ApprovalConfirmer,
  approvalConfirmer,
} from "../gate/confirm_approvals.ts";
import { reviewAction } from "./review_action.ts";
import { clickAction } from "./click_action.ts";
import { clickForge } from "../forge/click_forge.ts";
import { ciContext } from "../ci/ci_context.ts";

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

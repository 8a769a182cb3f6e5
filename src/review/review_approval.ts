/**
 * The review-approval stage of a `pr-review` gate (SPEC.md §13), for the job on
 * the merged commit: asks the forge which pull request was merged as the commit,
 * its reviews and the reviewers' permissions, checks the plans recorded at its
 * head, and when the review approves, writes ledger approvals naming it, so the
 * gate then counts them like any ledger approval. Otherwise it says why not. It
 * does not decide the gate; the caller reads the gate again afterwards.
 * @module
 */

import type { Clock } from "../clock.ts";
import { lineLog } from "../console/line_log.ts";
import type { Writer } from "../console/writer.ts";
import { forgeClientFromEnv } from "../forge/create_forge_client.ts";
import type { ForgeClient, Permission } from "../forge/forge_client.ts";
import { TOKEN_VARIABLES } from "../forge/forge_env.ts";
import { ForgeError } from "../forge/forge_error.ts";
import type { HttpDeps } from "../forge/forge_http.ts";
import { countingApprovals } from "../ledger/decide_gate.ts";
import type { LedgerStore } from "../ledger/ledger_store.ts";
import {
  type ApprovalRecord,
  approvalRecord,
  newStamp,
  type PlanPair,
  RECORDED_PLANS_GATE,
} from "../ledger/records.ts";
import { ciContext } from "../run/ci_context.ts";
import { checkRecordedPlans } from "./check_recorded_plans.ts";
import {
  judgeReviews,
  mergedPullRequest,
  reviewNote,
  reviewStances,
} from "./decide_review.ts";

/** The wave whose gate a review may approve. */
export interface ReviewInput {
  /** The spec's `name`. */
  name: string;
  /** The wave's gate, `<gate>-wave-<k>`. */
  gate: string;
  /** The merged commit the job runs at (full sha). */
  commit: string;
  /** The set digest the wave plans now (the decision's). */
  digest: string;
  /** The decision's members: kept as the plan set of `digest` (SPEC.md §10). */
  members: readonly PlanPair[];
}

/** The edges the stage works through. */
export interface ReviewIo {
  /** The gate ledger: recorded plans are read and approvals written there. */
  ledger: LedgerStore;
  /** The CI environment: which forge, its API URL, the repository, the token. */
  env: Record<string, string | undefined>;
  /** Stamps the approvals. */
  clock: Pick<Clock, "now">;
  /** Where warnings about unreadable records go. */
  stderr: Writer;
  /** Fetch and limits of the forge client (tests). */
  http?: HttpDeps;
}

/** The review approved (its approvals, one per approving writer) or why not. */
export type ReviewOutcome =
  | { approved: ApprovalRecord[] }
  | { refused: string };

/**
 * Approves a wave by the review of the pull request merged as `input.commit`,
 * when the forge shows that the newest standing review of at least one writer
 * other than the author approved exactly its head, no writer's request for
 * changes stands, and the plans recorded at that head give the wave the digest
 * it plans now. Then it writes the plan set of the digest and one `approval`
 * record per approving writer (`by` their login, `note` `approved by the review
 * of #<pr> at <head12>: <approvers>`), unless an identical one already counts;
 * the gate counts them like any ledger approval. Otherwise it writes nothing
 * and returns the reason: no merged pull request, a standing request for
 * changes, a stale review, the author's own review, nobody approved, no
 * recorded plans, the plan moved after the review, or the forge could not be
 * asked (no token, an error).
 * @param input The spec's name, the gate, the merged commit, the digest and members.
 * @param io The ledger, CI environment, clock and log.
 * @returns The approvals that count for the digest, or the refusal reason.
 * @throws {InputError} When a token variable or the forge API URL is malformed.
 * @throws {Error} When the ledger cannot be written.
 */
export async function reviewApproval(
  input: ReviewInput,
  io: ReviewIo,
): Promise<ReviewOutcome> {
  const made = forgeClientFromEnv(io.env, {
    ...(io.http ? { deps: io.http } : {}),
  });
  if (!made.ok) {
    return {
      refused: made.missing === "token"
        ? `no forge token to read the review: set ${
          TOKEN_VARIABLES[made.forge].join(" or ")
        }`
        : made.missing === "forge"
        ? "no forge to read the review from: not running in CI"
        : `cannot reach the forge to read the review: no ${made.missing} in the environment`,
    };
  }
  try {
    return await approveByReview(input, made.client, io);
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return {
      refused:
        `cannot read the review from ${made.client.forge}: ${error.message}`,
    };
  }
}

async function approveByReview(
  input: ReviewInput,
  client: ForgeClient,
  io: ReviewIo,
): Promise<ReviewOutcome> {
  const { name, gate, commit, digest } = input;
  const pull = mergedPullRequest(
    await client.pullRequestsOfCommit(commit),
    commit,
  );
  if (pull === undefined) {
    return {
      refused: `no merged pull request made ${commit.slice(0, 12)}`,
    };
  }
  const stances = reviewStances(await client.reviews(pull.number));
  const permissions = new Map<string, Permission>();
  for (const { user } of stances) {
    const key = user.toLowerCase();
    if (key !== pull.author.toLowerCase() && !permissions.has(key)) {
      permissions.set(key, await client.permission(user));
    }
  }
  const judged = judgeReviews({ pull, stances, permissions });
  if ("refused" in judged) return judged;
  const plans = await io.ledger.readGate(name, RECORDED_PLANS_GATE);
  const log = lineLog(io.stderr);
  for (const problem of plans.problems) log(`warning: ledger: ${problem}`);
  const moved = checkRecordedPlans({
    records: plans.records,
    pullRequest: pull.number,
    head: pull.headSha,
    gate,
    digest,
  });
  if (moved !== undefined) return { refused: moved };
  const note = reviewNote(pull, judged.approvers);
  const { records } = await io.ledger.readGate(name, gate);
  const standing = countingApprovals(records).filter((approval) =>
    approval.planDigest === digest && approval.note === note
  );
  const url = ciContext(io.env).runUrl;
  const approved: ApprovalRecord[] = [];
  let planSetWritten = false;
  for (const by of judged.approvers) {
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

/**
 * Asks the forge, once per job, what the review of the merged pull request says
 * (SPEC.md §13): which pull request was merged as the commit, each reviewer's
 * standing review and permission, and, when writers other than the author
 * approved its head, what the pull-request pipeline handed over for that head.
 * The edge between the review modules and the forge client; judging is
 * `decide_review.ts`'s, weighing the hand-offs `check_recorded_plans.ts`'s.
 * @module
 */

import type {
  ForgeClient,
  Permission,
  PullRequest,
} from "../forge/forge_client.ts";
import { forgeClientFromEnv } from "../forge/create_forge_client.ts";
import { TOKEN_VARIABLES } from "../forge/forge_env.ts";
import { ForgeError } from "../forge/forge_error.ts";
import type { HttpDeps } from "../forge/forge_http.ts";
import type { PlanClaim } from "../forge/plans_handoff.ts";
import {
  judgeReviews,
  mergedPullRequest,
  reviewStances,
} from "./decide_review.ts";

/** The review the forge shows for the merged commit. */
export interface ApprovingReview {
  /** The merged pull request. */
  pull: PullRequest;
  /** The writers other than the author whose standing review approves its head. */
  approvers: string[];
  /** What the pull-request pipeline handed over for its head (untrusted). */
  claims: PlanClaim[];
}

/** The forge's answer: an approving review, or why the review approves nothing. */
export type ReviewAnswer =
  | { approved: ApprovingReview }
  | { refused: string };

/** Asks the forge at most once; every call returns the same answer. */
export type ReviewAsker = () => Promise<ReviewAnswer>;

/** Whose review to ask for. */
export interface AskInput {
  /** The spec's `name` (whose hand-offs to read). */
  name: string;
  /** The merged commit the job runs at (full sha). */
  commit: string;
}

/** The edges the asker works through. */
export interface AskIo {
  /** The CI environment: which forge, its API URL, the repository, the token. */
  env: Record<string, string | undefined>;
  /** Fetch and limits of the forge client (tests). */
  http?: HttpDeps;
}

/**
 * Makes the asker of one job. Nothing is asked until it is first called; the
 * first call's answer (or error) is every call's.
 * @param input The spec's name and the merged commit.
 * @param io The environment and the HTTP deps.
 * @returns The asker. Its answer is `refused` when no pull request was merged
 *   as the commit, a writer's request for changes stands, the review is stale
 *   or the author's own, nobody with write access approved, or the forge could
 *   not be asked (not in CI, no token, an error).
 * @throws {InputError} (when called) When a token variable or the API URL is malformed.
 */
export function reviewAsker(input: AskInput, io: AskIo): ReviewAsker {
  let answer: Promise<ReviewAnswer> | undefined;
  return () => answer ??= ask(input, io);
}

async function ask(input: AskInput, io: AskIo): Promise<ReviewAnswer> {
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
    return await askClient(input, made.client);
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    return {
      refused:
        `cannot read the review from ${made.client.forge}: ${error.message}`,
    };
  }
}

async function askClient(
  input: AskInput,
  client: ForgeClient,
): Promise<ReviewAnswer> {
  const pull = mergedPullRequest(
    await client.pullRequestsOfCommit(input.commit),
    input.commit,
  );
  if (pull === undefined) {
    return {
      refused: `no merged pull request made ${input.commit.slice(0, 12)}`,
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
  const claims = await client.handedPlans({
    pullRequest: pull.number,
    head: pull.headSha,
    name: input.name,
  });
  return { approved: { pull, approvers: judged.approvers, claims } };
}

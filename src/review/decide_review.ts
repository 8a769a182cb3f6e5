/**
 * Review approvals, pure (SPEC.md §13): which merged pull request made a
 * commit, what each reviewer's standing review says, and whether the writers
 * other than the author approved exactly its head with no writer's request for
 * changes standing; else the one refusal reason. Asking the forge and checking
 * the recorded plans are other modules' jobs.
 * @module
 */

import {
  isWriter,
  type Permission,
  type PullRequest,
  type Review,
} from "../forge/forge_client.ts";

/** A judgement: the writers who approved the head, or why nothing counts. */
export type ReviewJudgement =
  | { approvers: string[] }
  | { refused: string };

/**
 * The merged pull request that made `commit`: the one whose merge commit it is
 * (merge, squash or rebase), else one whose head it is (a fast-forward merge).
 * @param pulls The pull requests that contain the commit.
 * @param commit The merged commit (full sha).
 * @returns The pull request, or `undefined` when none was merged as it.
 * @example
 * ```ts
 * mergedPullRequest([{ number: 7, author: "a", merged: true, headSha: h,
 *   mergeSha: m }], m)?.number; // 7
 * ```
 */
export function mergedPullRequest(
  pulls: readonly PullRequest[],
  commit: string,
): PullRequest | undefined {
  const merged = pulls.filter((pull) => pull.merged);
  return merged.find((pull) => pull.mergeSha === commit) ??
    merged.find((pull) => pull.headSha === commit);
}

/**
 * Each reviewer's standing review: their newest review that approves or
 * requests changes, unless a newer one of theirs was dismissed. Comments change
 * nothing. Logins compare case-insensitively.
 * @param reviews The pull request's reviews, oldest first.
 * @returns One review per reviewer who stands by one, in the order of their last.
 * @example
 * ```ts
 * reviewStances([{ user: "ann", state: "approved" },
 *   { user: "ann", state: "commented" }]); // [{ user: "ann", state: "approved" }]
 * ```
 */
export function reviewStances(reviews: readonly Review[]): Review[] {
  const stances = new Map<string, Review | undefined>();
  for (const review of reviews) {
    if (review.state === "commented") continue;
    const key = review.user.toLowerCase();
    stances.delete(key);
    stances.set(key, review.state === "dismissed" ? undefined : review);
  }
  return [...stances.values()].filter((review) => review !== undefined);
}

/** What {@linkcode judgeReviews} weighs. */
export interface ReviewQuery {
  /** The merged pull request. */
  pull: PullRequest;
  /** The standing reviews (`reviewStances`). */
  stances: readonly Review[];
  /** Each reviewer's permission (login, lowercased → permission); absent means none. */
  permissions: ReadonlyMap<string, Permission>;
}

/**
 * Judges the standing reviews of a merged pull request: approved when at least
 * one writer other than the author approved exactly its head commit and no
 * writer's request for changes stands. Reviews by people without write access
 * count for nothing either way. Refusals, in this order: a standing request for
 * changes by a writer; a writer's approval of another commit (stale review); the
 * author's own approval; nobody approved.
 * @param query The pull request, standing reviews and permissions.
 * @returns The approving writers' logins, or the refusal reason.
 * @example
 * ```ts
 * judgeReviews({ pull, stances: [], permissions: new Map() });
 * // { refused: "nobody with write access approved #7" }
 * ```
 */
export function judgeReviews(query: ReviewQuery): ReviewJudgement {
  const { pull, stances, permissions } = query;
  const pr = `#${pull.number}`;
  const author = pull.author.toLowerCase();
  const writer = (review: Review) =>
    review.user.toLowerCase() !== author &&
    isWriter(permissions.get(review.user.toLowerCase()) ?? "none");
  const changes = stances.find((review) =>
    review.state === "changes_requested" && writer(review)
  );
  if (changes !== undefined) {
    return {
      refused:
        `${changes.user} requested changes to ${pr}, and that request stands`,
    };
  }
  const approvals = stances.filter((review) => review.state === "approved");
  const approvers = approvals.filter((review) =>
    writer(review) && review.commitSha === pull.headSha
  ).map((review) => review.user);
  if (approvers.length > 0) return { approvers };
  const head = pull.headSha.slice(0, 12);
  const stale = approvals.find(writer);
  if (stale !== undefined) {
    return {
      refused: stale.commitSha === undefined
        ? `stale review: the forge does not say which commit ${stale.user} approved in ${pr}, so it cannot be the head ${head}`
        : `stale review: ${stale.user} approved ${pr} at ${
          stale.commitSha.slice(0, 12)
        }, but its head is ${head}`,
    };
  }
  if (approvals.some((review) => review.user.toLowerCase() === author)) {
    return {
      refused:
        `the author's own review doesn't count: ${pull.author} approved ${pr}`,
    };
  }
  const others = approvals.map((review) =>
    `${review.user} (${permissions.get(review.user.toLowerCase()) ?? "none"})`
  );
  return {
    refused: `nobody with write access approved ${pr}` +
      (others.length > 0 ? `; not counted: ${others.join(", ")}` : ""),
  };
}

/**
 * The note of an approval a review made: `approved by the review of #<pr> at
 * <head12>: <approvers>`.
 * @param pull The merged pull request.
 * @param approvers The approving writers.
 * @returns The note.
 * @example
 * ```ts
 * reviewNote({ number: 7, headSha: "ab".repeat(20), … }, ["ann", "bob"]);
 * // "approved by the review of #7 at abababababab: ann, bob"
 * ```
 */
export function reviewNote(
  pull: PullRequest,
  approvers: readonly string[],
): string {
  return `approved by the review of #${pull.number} at ${
    pull.headSha.slice(0, 12)
  }: ${approvers.join(", ")}`;
}

/** The review an approval's note names (`reviewNote`). */
export interface NamedReview {
  /** The pull request's number. */
  pullRequest: number;
  /** The first 12 hex digits of the head it approved. */
  head12: string;
}

/**
 * The review an approval names, read from its note as `reviewNote` writes it.
 * @param note The approval's note.
 * @returns The pull request and head, or `undefined` when it names no review.
 * @example
 * ```ts
 * namedReview("approved by the review of #7 at abababababab: ann");
 * // { pullRequest: 7, head12: "abababababab" }
 * ```
 */
export function namedReview(note: string | undefined): NamedReview | undefined {
  const found =
    /^approved by the review of #([1-9][0-9]{0,9}) at ([0-9a-f]{12}): /
      .exec(note ?? "");
  return found
    ? { pullRequest: Number(found[1]), head12: found[2] }
    : undefined;
}

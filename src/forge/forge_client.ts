/**
 * The one interface chant-wave talks to a forge through (SPEC.md §13), and the
 * small normalised results it returns: pull requests, reviews, permissions,
 * the plans a pull request's pipeline handed over, and the outcome of
 * restarting a CI job. Types and one pure helper; the three clients implement
 * it.
 * What chant-wave itself hands a client (a repository, a commit SHA, a login)
 * is checked here before any of it becomes part of a request.
 * @module
 */

import type { HttpDeps } from "./forge_http.ts";
import type { Forge } from "../ci/forges.ts";
import type { PlanClaim, RecordedPlans } from "./plans_handoff.ts";
import type { CommentKept, WaveStatus } from "./plan_comment.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import { quote } from "../quote.ts";
import { InputError } from "../errors.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { isFullSha } from "../input/full_sha.ts";

/** A pull request (a GitLab merge request), as far as review approvals need it. */
export interface PullRequest {
  /** Its number (GitLab: the merge request's `iid`). */
  number: number;
  /** Its author's login (GitLab: username). */
  author: string;
  /** Whether it was merged. */
  merged: boolean;
  /** The SHA of its head commit (for a merged one: the head it was merged at). */
  headSha: string;
  /** The commit the merge made on the target branch, when the forge names one. */
  mergeSha?: string;
}

/** What a review says. */
export const REVIEW_STATES = [
  "approved",
  "changes_requested",
  "commented",
  "dismissed",
] as const;

/** `approved`, `changes_requested`, `commented` or `dismissed`. */
export type ReviewState = typeof REVIEW_STATES[number];

/**
 * One submitted review. Unsubmitted (pending) reviews and reviews by deleted
 * users are never returned. Reviews come oldest first; undated ones last.
 */
export interface Review {
  /** The reviewer's login (GitLab: username). */
  user: string;
  /** What the review says. */
  state: ReviewState;
  /**
   * The commit the review was given on; absent when the forge cannot say
   * (GitHub after the commit was garbage-collected; GitLab, see `gitlab_client.ts`).
   */
  commitSha?: string;
  /**
   * When it was submitted, ISO 8601 UTC; absent when the forge does not say
   * (GitLab's standing requests for changes are a reviewer's current state).
   */
  submittedAt?: string;
}

/** A user's access to the repository, most first. */
export const PERMISSIONS = [
  "admin",
  "maintain",
  "write",
  "triage",
  "read",
  "none",
] as const;

/** `admin`, `maintain`, `write`, `triage`, `read` or `none`. */
export type Permission = typeof PERMISSIONS[number];

/**
 * Whether a permission lets its holder push to the repository ("a writer").
 * @param permission The permission.
 * @returns `true` for `write`, `maintain` and `admin`.
 * @example
 * ```ts
 * isWriter("maintain"); // true
 * isWriter("triage"); // false
 * ```
 */
export function isWriter(permission: Permission): boolean {
  return permission === "write" || permission === "maintain" ||
    permission === "admin";
}

/**
 * What restarting a recorded CI job did. Failures are thrown (`ForgeError`),
 * never returned.
 */
export type RestartResult =
  /** The job runs again; `detail` says what was restarted. */
  | { status: "resumed"; detail: string }
  /** Not restarted, on purpose: the run is unfinished or was re-run since. */
  | { status: "skipped"; reason: string }
  /** There is no job of this repository to restart (gone, or another repository's). */
  | { status: "no-job"; reason: string };

/** Whose handed-over plans to read (SPEC.md §13). */
export interface HandoffQuery {
  /** The merged pull request's number (GitLab: iid). */
  pullRequest: number;
  /** Its head commit (full sha): only hand-offs for it are returned. */
  head: string;
  /** The spec's `name`. */
  name: string;
}

/** One forge's API, for one repository (GitLab: one project). */
export interface ForgeClient {
  /** Which forge this is. */
  readonly forge: Forge;
  /**
   * Restarts the CI job a pending fact was recorded in (SPEC.md §13 `resume`).
   * GitHub: re-runs the failed jobs of the run unless it is not completed or
   * was re-run since the recorded attempt. GitLab: retries the job unless a
   * newer job of the same name exists in its pipeline or it has not finished.
   * Forgejo: dispatches the workflow on the recorded ref. A locator of another
   * forge, API or repository is `no-job` (its token is not sent there).
   * @param locator The run locator, already validated by `parseRunLocator`.
   * @returns What happened.
   * @throws {ForgeError} When the forge cannot be asked or refuses.
   */
  restartJob(locator: RunLocator): Promise<RestartResult>;
  /**
   * The pull requests that contain a commit (for a merge commit: the one it merged).
   * @param sha A commit SHA.
   * @returns Every such pull request; empty when none (GitHub/GitLab list them;
   *   Forgejo names at most one).
   * @throws {ForgeError} When the forge cannot be asked or refuses.
   */
  pullRequestsOfCommit(sha: string): Promise<PullRequest[]>;
  /**
   * The submitted reviews of a pull request, oldest first.
   * @param pullRequest Its number (GitLab: iid).
   * @returns The reviews.
   * @throws {ForgeError} When the forge cannot be asked or refuses.
   */
  reviews(pullRequest: number): Promise<Review[]>;
  /**
   * A user's permission on the repository (`none` for a stranger).
   * @param user A login (GitLab: username).
   * @returns The permission.
   * @throws {ForgeError} When the forge cannot be asked or refuses.
   */
  permission(user: string): Promise<Permission>;
  /**
   * What the pull-request pipeline handed over for a head (`plans_handoff.ts`):
   * GitHub and Forgejo, the head's commit statuses under
   * `chant-wave/<name>/wave-`; GitLab, the plans file in the artifact of the
   * `record-plans` job that succeeded in each of the merge request's newest
   * pipelines, when it names that head. Untrusted: every claim, a problem
   * included, is returned for the caller to weigh.
   * @param query The pull request, its head and the spec's name.
   * @returns The claims, in the forge's order (newest first).
   * @throws {ForgeError} When the forge cannot be asked or refuses.
   */
  handedPlans(query: HandoffQuery): Promise<PlanClaim[]>;
  /**
   * Hands recorded plans over from the pull-request job: one `success` commit
   * status of the head per wave (context `chant-wave/<name>/wave-<k>`,
   * description its digest). GitHub and Forgejo only: on GitLab the plans
   * travel as the job's artifact, which needs no token.
   * @param plans The spec's name, the head and each wave's digest.
   * @param targetUrl The run's URL, linked from each status.
   * @returns What was handed over, for the log (`2 commit statuses of <head12>`).
   * @throws {ForgeError} When the forge refuses (a read-only token of a fork).
   */
  handPlans?(plans: RecordedPlans, targetUrl?: string): Promise<string>;
  /**
   * Keeps the plan comment of a pull request (GitLab: merge request note)
   * up to date (SPEC.md §18, `plan_comment.ts`): edits the token's own user's
   * comment that starts with `marker`, or creates it.
   * @param request The pull request's number (GitLab: iid).
   * @param marker The comment's hidden first line.
   * @param body The comment, starting with `marker`.
   * @returns Whether it was created or edited.
   * @throws {ForgeError} When the forge refuses (a read-only token: 403).
   */
  keepPlanComment(
    request: number,
    marker: string,
    body: string,
  ): Promise<CommentKept>;
  /**
   * Posts a wave's plan status on a commit (GitLab `POST
   * /projects/:id/statuses/:sha`, whose state for a failure is `failed`).
   * @param sha The head commit.
   * @param status The status.
   * @throws {ForgeError} When the forge refuses.
   */
  postWaveStatus(sha: string, status: WaveStatus): Promise<void>;
}

/** What every client is made from. */
export interface ForgeClientConfig extends HttpDeps {
  /** The API base URL (see `forgeApiUrl`); the token is only ever sent there. */
  apiUrl: string;
  /** The token (see `forgeToken`). */
  token: string;
  /** The repository: `owner/name` (GitHub, Forgejo) or the project id or path (GitLab). */
  repository: string;
}

/**
 * Splits `owner/name`.
 * @param repository The repository as configured (`GITHUB_REPOSITORY`).
 * @returns Owner and name.
 * @throws {InputError} When it is not `owner/name` of safe characters.
 * @example
 * ```ts
 * ownerAndName("octo/hello"); // ["octo", "hello"]
 * ```
 */
export function ownerAndName(repository: string): [string, string] {
  const parts = repository.split("/");
  const segment = /^[A-Za-z0-9_.-]{1,100}$/;
  if (
    parts.length !== 2 ||
    !parts.every((part) => segment.test(part) && !/^\.{1,2}$/.test(part))
  ) {
    throw new InputError(
      `the repository ${quote(repository)} is not "owner/name"`,
    );
  }
  return [parts[0], parts[1]];
}

/**
 * Checks a commit SHA.
 * @param sha The SHA.
 * @returns The same SHA.
 * @throws {InputError} When it is not 40 or 64 lowercase hex digits.
 */
export function checkedSha(sha: string): string {
  if (!isFullSha(sha)) {
    throw new InputError(
      `${quote(sha)} is not a full commit SHA`,
    );
  }
  return sha;
}

/**
 * Checks a login or username.
 * @param user The login.
 * @returns The same login.
 * @throws {InputError} When it is empty, longer than 255 characters or holds
 *   spaces or control characters.
 */
export function checkedUser(user: string): string {
  if (!/^[^\s/]{1,255}$/.test(user) || hasControlCharacter(user)) {
    throw new InputError(
      `${quote(user)} is not a user name`,
    );
  }
  return user;
}

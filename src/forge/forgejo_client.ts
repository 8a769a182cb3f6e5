/**
 * The Forgejo (and Gitea) REST v1 client (SPEC.md §13): a workflow's dispatch,
 * the pull request a commit merged, a pull request's reviews, a collaborator's
 * permission, and the commit statuses that carry a pull request's recorded
 * plans (Forgejo names a status's state `status`), normalised.
 * `Authorization: token` auth.
 * @module
 */

import {
  checkedSha,
  checkedUser,
  type ForgeClient,
  type ForgeClientConfig,
  type HandoffQuery,
  ownerAndName,
  type Permission,
  type PullRequest,
  type RestartResult,
  type Review,
  type ReviewState,
} from "./forge_client.ts";
import {
  claimOfStatus,
  type PlanClaim,
  postPlanStatuses,
  type RecordedPlans,
} from "./plans_handoff.ts";
import { apiPath, parseApiUrl } from "./forge_env.ts";
import {
  issueComments,
  keepComment,
  ownLogin,
  postStatus,
  statusBody,
  type WaveStatus,
} from "./plan_comment.ts";
import { forgeHttp } from "./forge_http.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import type { JsonReader } from "../input/json_reader.ts";
import { NAME, optionalSha, timeOf } from "./_answer_reader.ts";
import { ownLocator } from "./run_locator_from_env.ts";

/** Submitted review states; `PENDING`, `REQUEST_REVIEW` and `""` are not reviews. */
const REVIEW_STATE: Readonly<Record<string, ReviewState>> = {
  APPROVED: "approved",
  REQUEST_CHANGES: "changes_requested",
  COMMENT: "commented",
};
const NOT_A_REVIEW = new Set(["PENDING", "REQUEST_REVIEW", ""]);

const PERMISSION: Readonly<Record<string, Permission>> = {
  owner: "admin",
  admin: "admin",
  write: "write",
  read: "read",
  none: "none",
};

/**
 * Makes the Forgejo client for one repository.
 * @param config API URL (`<server>/api/v1`), token, `owner/name` and HTTP deps.
 * @returns The client.
 * @throws {InputError} When the API URL or the repository is unusable.
 */
export function forgejoClient(config: ForgeClientConfig): ForgeClient {
  const [owner, name] = ownerAndName(config.repository);
  const base = parseApiUrl(config.apiUrl);
  const http = forgeHttp({
    apiUrl: config.apiUrl,
    auth: ["authorization", `token ${config.token}`],
    token: config.token,
  }, config);
  const repo = apiPath`/repos/${owner}/${name}`;
  return {
    forge: "forgejo",
    async restartJob(recorded: RunLocator): Promise<RestartResult> {
      const own = ownLocator(recorded, "forgejo", base, config.repository);
      if (!own.ok) return { status: "no-job", reason: own.reason };
      const { workflow, ref } = own.locator;
      const answer = await http.request(
        "POST",
        repo + apiPath`/actions/workflows/${workflow}/dispatches`,
        { body: { ref }, allow: [404] },
      );
      if (answer.status === 404) {
        return {
          status: "no-job",
          reason: `workflow ${workflow} is not on ${ref}`,
        };
      }
      return {
        status: "resumed",
        detail: `dispatched workflow ${workflow} on ${ref}`,
      };
    },
    async pullRequestsOfCommit(sha: string): Promise<PullRequest[]> {
      const answer = await http.request(
        "GET",
        repo + apiPath`/commits/${checkedSha(sha)}/pull`,
        { allow: [404] },
      );
      if (answer.status === 404) return [];
      return http.decode(
        answer.what,
        answer.body,
        (body) => [pullRequest(body)],
      );
    },
    async reviews(pullRequest: number): Promise<Review[]> {
      const list = await http.list(
        repo + apiPath`/pulls/${pullRequest}/reviews`,
        { limit: "50" },
      );
      return http.decode(
        list.what,
        list.items,
        (items) => items.list().flatMap(review),
      );
    },
    async permission(user: string): Promise<Permission> {
      const answer = await http.request(
        "GET",
        repo + apiPath`/collaborators/${checkedUser(user)}/permission`,
        { allow: [404] },
      );
      if (answer.status === 404) return "none";
      return http.decode(answer.what, answer.body, (body) => {
        const at = body.object().get("permission");
        return PERMISSION[at.string(NAME)] ??
          at.fail("is not a known permission");
      });
    },
    async handedPlans(query: HandoffQuery): Promise<PlanClaim[]> {
      const list = await http.list(
        repo + apiPath`/commits/${checkedSha(query.head)}/statuses`,
        { limit: "50" },
      );
      return http.decode(
        list.what,
        list.items,
        (items) =>
          items.list().flatMap((item) =>
            claimOfStatus(item.value, "status", query.name) ?? []
          ),
      );
    },
    handPlans(plans: RecordedPlans, targetUrl?: string) {
      const path = repo + apiPath`/statuses/${checkedSha(plans.head)}`;
      return postPlanStatuses(http, path, plans, targetUrl);
    },
    async keepPlanComment(request: number, marker: string, body: string) {
      const own = await ownLogin(http, "login");
      // Forgejo lists an issue's comments whole (only `since`/`before`).
      const place = issueComments(repo, request, {});
      return await keepComment(http, place, own, marker, body);
    },
    postWaveStatus: (sha: string, status: WaveStatus) =>
      postStatus(http, repo, checkedSha(sha), statusBody(status, "forgejo")),
  };
}

function pullRequest(pr: JsonReader): PullRequest {
  pr.object();
  const mergeSha = optionalSha(pr.get("merge_commit_sha"));
  return {
    number: pr.get("number").integer(),
    author: pr.get("user").object().get("login").string(NAME),
    merged: pr.get("merged").boolean(),
    headSha: pr.get("head").object().get("sha").fullSha(),
    ...(mergeSha ? { mergeSha } : {}),
  };
}

function review(item: JsonReader): Review[] {
  const at = item.object().get("state");
  const state = at.string(NAME);
  if (NOT_A_REVIEW.has(state) || item.get("user").absent) return [];
  const mapped = REVIEW_STATE[state] ?? at.fail("is not a known review state");
  const commitSha = optionalSha(item.get("commit_id"));
  return [{
    user: item.get("user").object().get("login").string(NAME),
    state: item.get("dismissed").value === true ? "dismissed" : mapped,
    ...(commitSha ? { commitSha } : {}),
    submittedAt: timeOf(item.get("submitted_at")),
  }];
}

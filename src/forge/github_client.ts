/**
 * The GitHub REST client (SPEC.md §13): workflow runs and their re-run (of the
 * failed jobs, or of every job when the waiting job ended green), the pull
 * requests of a commit, a pull request's reviews, a collaborator's permission,
 * and the commit statuses that carry a pull request's recorded plans,
 * normalised. `Authorization: Bearer`, API version 2022-11-28.
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

const REVIEW_STATE: Readonly<Record<string, ReviewState>> = {
  APPROVED: "approved",
  CHANGES_REQUESTED: "changes_requested",
  COMMENTED: "commented",
  DISMISSED: "dismissed",
};

const ROLE: Readonly<Record<string, Permission>> = {
  admin: "admin",
  maintain: "maintain",
  write: "write",
  triage: "triage",
  read: "read",
  none: "none",
};

/**
 * Makes the GitHub client for one repository.
 * @param config API URL (`GITHUB_API_URL`), token, `owner/name` and HTTP deps.
 * @returns The client.
 * @throws {InputError} When the API URL or the repository is unusable.
 */
export function githubClient(config: ForgeClientConfig): ForgeClient {
  const [owner, name] = ownerAndName(config.repository);
  const base = parseApiUrl(config.apiUrl);
  const http = forgeHttp({
    apiUrl: config.apiUrl,
    auth: ["authorization", `Bearer ${config.token}`],
    token: config.token,
    headers: {
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
    },
  }, config);
  const repo = apiPath`/repos/${owner}/${name}`;
  return {
    forge: "github",
    async restartJob(recorded: RunLocator): Promise<RestartResult> {
      const own = ownLocator(recorded, "github", base, config.repository);
      if (!own.ok) return { status: "no-job", reason: own.reason };
      const locator = own.locator;
      const runPath = repo + apiPath`/actions/runs/${locator.runId}`;
      const answer = await http.request("GET", runPath, { allow: [404] });
      if (answer.status === 404) {
        return { status: "no-job", reason: `run ${locator.runId} is gone` };
      }
      const run = http.decode(answer.what, answer.body, (body) => {
        const run = body.object();
        return {
          status: run.get("status").string(NAME),
          conclusion: run.get("conclusion").optional((r) => r.string(NAME)),
          attempt: run.get("run_attempt").optional((r) => r.integer()) ?? 1,
        };
      });
      if (run.status !== "completed") {
        return {
          status: "skipped",
          reason: `run ${locator.runId} is ${run.status}, not completed`,
        };
      }
      if (run.attempt > locator.attempt) {
        return {
          status: "skipped",
          reason:
            `run ${locator.runId} was re-run since (attempt ${run.attempt})`,
        };
      }
      // A run whose waiting job ended green (SPEC.md §13.1) has no failed job:
      // re-run it whole; its jobs that applied find their plans applied.
      const whole = run.conclusion === "success";
      await http.request(
        "POST",
        `${runPath}/${whole ? "rerun" : "rerun-failed-jobs"}`,
        { body: {} },
      );
      return {
        status: "resumed",
        detail: `re-ran ${
          whole ? "every job" : "the failed jobs"
        } of run ${locator.runId} (attempt ${run.attempt + 1})`,
      };
    },
    async pullRequestsOfCommit(sha: string): Promise<PullRequest[]> {
      const path = repo + apiPath`/commits/${checkedSha(sha)}/pulls`;
      const list = await http.list(path, { per_page: "100" });
      return http.decode(
        list.what,
        list.items,
        (items) => items.list().map(pullRequest),
      );
    },
    async reviews(pullRequest: number): Promise<Review[]> {
      const path = repo + apiPath`/pulls/${pullRequest}/reviews`;
      const list = await http.list(path, { per_page: "100" });
      return http.decode(
        list.what,
        list.items,
        (items) => items.list().flatMap(review),
      );
    },
    async permission(user: string): Promise<Permission> {
      const path = repo +
        apiPath`/collaborators/${checkedUser(user)}/permission`;
      const answer = await http.request("GET", path, { allow: [404] });
      if (answer.status === 404) return "none";
      return http.decode(answer.what, answer.body, (body) => {
        const object = body.object();
        const role = object.get("role_name").optional((r) => r.string(NAME));
        if (role !== undefined && ROLE[role]) return ROLE[role];
        const at = object.get("permission");
        return ROLE[at.string(NAME)] ?? at.fail("is not a known permission");
      });
    },
    async handedPlans(query: HandoffQuery): Promise<PlanClaim[]> {
      const path = repo + apiPath`/commits/${checkedSha(query.head)}/statuses`;
      const list = await http.list(path, { per_page: "100" });
      return http.decode(
        list.what,
        list.items,
        (items) =>
          items.list().flatMap((item) =>
            claimOfStatus(item.value, "state", query.name) ?? []
          ),
      );
    },
    handPlans(plans: RecordedPlans, targetUrl?: string) {
      const path = repo + apiPath`/statuses/${checkedSha(plans.head)}`;
      return postPlanStatuses(http, path, plans, targetUrl);
    },
    async keepPlanComment(request: number, marker: string, body: string) {
      // Actions' own token may not read /user; it comments as this bot.
      const own = await ownLogin(http, "login", "github-actions[bot]");
      const place = issueComments(repo, request, { per_page: "100" });
      return await keepComment(http, place, own, marker, body);
    },
    postWaveStatus: (sha: string, status: WaveStatus) =>
      postStatus(http, repo, checkedSha(sha), statusBody(status, "github")),
  };
}

function pullRequest(pr: JsonReader): PullRequest {
  pr.object();
  const user = pr.get("user");
  const mergeSha = optionalSha(pr.get("merge_commit_sha"));
  return {
    number: pr.get("number").integer(),
    author: user.value === null
      ? "ghost"
      : user.object().get("login").string(NAME),
    merged: pr.get("merged_at").optional(timeOf) !== undefined,
    headSha: pr.get("head").object().get("sha").fullSha(),
    ...(mergeSha ? { mergeSha } : {}),
  };
}

function review(item: JsonReader): Review[] {
  const at = item.object().get("state");
  const state = at.string(NAME);
  if (state === "PENDING" || item.get("user").value === null) return [];
  const mapped = REVIEW_STATE[state] ?? at.fail("is not a known review state");
  const commitSha = optionalSha(item.get("commit_id"));
  const submittedAt = item.get("submitted_at").optional(timeOf);
  return [{
    user: item.get("user").object().get("login").string(NAME),
    state: mapped,
    ...(commitSha ? { commitSha } : {}),
    ...(submittedAt ? { submittedAt } : {}),
  }];
}

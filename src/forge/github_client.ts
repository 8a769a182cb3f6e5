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
import { forgeHttp } from "./forge_http.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import {
  asArray,
  asObject,
  integerAt,
  type JsonObject,
  objectAt,
  optionalShaAt,
  optionalStringAt,
  optionalTimeAt,
  shaAt,
  ShapeError,
  stringAt,
} from "./_json_shape.ts";
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
        const run = asObject(body, "");
        return {
          status: stringAt(run, "status", ""),
          conclusion: optionalStringAt(run, "conclusion", ""),
          attempt: run.run_attempt === undefined
            ? 1
            : integerAt(run, "run_attempt", ""),
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
        (items) =>
          asArray(items, "").map((item, i) =>
            pullRequest(asObject(item, `[${i}]`), `[${i}]`)
          ),
      );
    },
    async reviews(pullRequest: number): Promise<Review[]> {
      const path = repo + apiPath`/pulls/${pullRequest}/reviews`;
      const list = await http.list(path, { per_page: "100" });
      return http.decode(
        list.what,
        list.items,
        (items) =>
          asArray(items, "").flatMap((item, i) =>
            review(asObject(item, `[${i}]`), `[${i}]`)
          ),
      );
    },
    async permission(user: string): Promise<Permission> {
      const path = repo +
        apiPath`/collaborators/${checkedUser(user)}/permission`;
      const answer = await http.request("GET", path, { allow: [404] });
      if (answer.status === 404) return "none";
      return http.decode(answer.what, answer.body, (body) => {
        const object = asObject(body, "");
        const role = optionalStringAt(object, "role_name", "");
        if (role !== undefined && ROLE[role]) return ROLE[role];
        const permission = stringAt(object, "permission", "");
        if (!ROLE[permission]) {
          throw new ShapeError(".permission", "is not a known permission");
        }
        return ROLE[permission];
      });
    },
    async handedPlans(query: HandoffQuery): Promise<PlanClaim[]> {
      const path = repo + apiPath`/commits/${checkedSha(query.head)}/statuses`;
      const list = await http.list(path, { per_page: "100" });
      return http.decode(
        list.what,
        list.items,
        (items) =>
          asArray(items, "").flatMap((item) =>
            claimOfStatus(item, "state", query.name) ?? []
          ),
      );
    },
    handPlans(plans: RecordedPlans, targetUrl?: string) {
      const path = repo + apiPath`/statuses/${checkedSha(plans.head)}`;
      return postPlanStatuses(http, path, plans, targetUrl);
    },
  };
}

function pullRequest(pr: JsonObject, where: string): PullRequest {
  const user = pr.user === null ? undefined : objectAt(pr, "user", where);
  const mergeSha = optionalShaAt(pr, "merge_commit_sha", where);
  return {
    number: integerAt(pr, "number", where),
    author: user ? stringAt(user, "login", `${where}.user`) : "ghost",
    merged: optionalTimeAt(pr, "merged_at", where) !== undefined,
    headSha: shaAt(objectAt(pr, "head", where), "sha", `${where}.head`),
    ...(mergeSha ? { mergeSha } : {}),
  };
}

function review(item: JsonObject, where: string): Review[] {
  const state = stringAt(item, "state", where);
  if (state === "PENDING" || item.user === null) return [];
  const mapped = REVIEW_STATE[state];
  if (mapped === undefined) {
    throw new ShapeError(`${where}.state`, "is not a known review state");
  }
  const commitSha = optionalShaAt(item, "commit_id", where);
  const submittedAt = optionalTimeAt(item, "submitted_at", where);
  return [{
    user: stringAt(objectAt(item, "user", where), "login", `${where}.user`),
    state: mapped,
    ...(commitSha ? { commitSha } : {}),
    ...(submittedAt ? { submittedAt } : {}),
  }];
}

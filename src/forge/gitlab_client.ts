/**
 * The GitLab REST (v4) client (SPEC.md §13): a pipeline's jobs and a job's
 * retry, the merge requests of a commit, a merge request's approvals and
 * requests for changes, a member's access level, and the plans file in the
 * artifacts of a merge request's `record-plans` jobs, normalised.
 * `PRIVATE-TOKEN` auth.
 *
 * What an approval approved: GitLab approvals carry no commit. Each push to a
 * merge request makes a new diff version (`GET …/versions`: `head_commit_sha`,
 * `created_at`), and each approval says when it was given (`approved_by[].approved_at`).
 * An approval is taken to approve the head of the newest version created at or
 * before it (both times are the server's). When GitLab does not say when
 * (versions before `approved_at` was exposed), the approval is tied to a commit
 * only if the merge request ever had one version; otherwise it has no
 * `commitSha` and cannot count for a head. A standing request for changes is a
 * reviewer whose state is `requested_changes` (`GET …/reviewers`); it has no
 * commit or time.
 * @module
 */

import {
  checkedSha,
  checkedUser,
  type ForgeClient,
  type ForgeClientConfig,
  type HandoffQuery,
  type Permission,
  type PullRequest,
  type RestartResult,
  type Review,
} from "./forge_client.ts";
import { apiPath, parseApiUrl } from "./forge_env.ts";
import {
  keepComment,
  ownLogin,
  postStatus,
  statusBody,
  type WaveStatus,
} from "./plan_comment.ts";
import { type ForgeHttp, forgeHttp } from "./forge_http.ts";
import type { PlanClaim } from "./plans_handoff.ts";
import type { RunLocator } from "../ci/run_locator.ts";
import type { JsonReader } from "../input/json_reader.ts";
import { idOf, NAME, optionalSha, timeOf } from "./_answer_reader.ts";
import { handedPlans, pipelineJobs } from "./_gitlab_pipelines.ts";
import { ownLocator } from "./run_locator_from_env.ts";

/** Job statuses after which a job may be retried. */
const FINISHED = new Set(["success", "failed", "canceled", "skipped"]);

/**
 * Makes the GitLab client for one project.
 * @param config API URL (`CI_API_V4_URL`), token, project id (`CI_PROJECT_ID`)
 *   or path, and HTTP deps.
 * @returns The client.
 * @throws {InputError} When the API URL is unusable.
 */
export function gitlabClient(config: ForgeClientConfig): ForgeClient {
  const base = parseApiUrl(config.apiUrl);
  const http = forgeHttp({
    apiUrl: config.apiUrl,
    auth: ["private-token", config.token],
    token: config.token,
  }, config);
  const project = apiPath`/projects/${config.repository}`;
  return {
    forge: "gitlab",
    async restartJob(recorded: RunLocator): Promise<RestartResult> {
      const own = ownLocator(recorded, "gitlab", base, config.repository);
      if (!own.ok) return { status: "no-job", reason: own.reason };
      const locator = own.locator;
      const jobs = await pipelineJobs(http, project, locator.pipelineId);
      if (jobs === undefined) {
        return {
          status: "no-job",
          reason: `pipeline ${locator.pipelineId} is gone`,
        };
      }
      const job = jobs.find((candidate) => candidate.id === locator.jobId);
      if (job === undefined) {
        return {
          status: "no-job",
          reason:
            `job ${locator.jobId} is not in pipeline ${locator.pipelineId}`,
        };
      }
      const newer = jobs.find((candidate) =>
        candidate.name === locator.jobName &&
        BigInt(candidate.id) > BigInt(locator.jobId)
      );
      if (newer !== undefined) {
        return {
          status: "skipped",
          reason: `a newer job ${newer.id} of the name exists`,
        };
      }
      if (!FINISHED.has(job.status)) {
        return {
          status: "skipped",
          reason: `job ${job.id} has not finished (${job.status})`,
        };
      }
      // A gated wave's job ends green when it waits: its child pipeline
      // goes on when its manual approve job is played, not by a retry.
      if (job.status === "success") {
        return {
          status: "skipped",
          reason:
            `job ${job.id} ended green: its wave goes on when its manual approve job is played`,
        };
      }
      const answer = await http.request(
        "POST",
        project + apiPath`/jobs/${locator.jobId}/retry`,
      );
      const retried = http.decode(
        answer.what,
        answer.body,
        (body) => idOf(body.object().get("id")),
      );
      return {
        status: "resumed",
        detail: `retried job ${locator.jobId} as job ${retried}`,
      };
    },
    async pullRequestsOfCommit(sha: string): Promise<PullRequest[]> {
      const path = project +
        apiPath`/repository/commits/${checkedSha(sha)}/merge_requests`;
      const list = await http.list(path, { per_page: "100" });
      return http.decode(
        list.what,
        list.items,
        (items) => items.list().map(mergeRequest),
      );
    },
    async reviews(iid: number): Promise<Review[]> {
      const mr = project + apiPath`/merge_requests/${iid}`;
      const approvals = await approvalsOf(http, `${mr}/approvals`);
      const heads = approvals.length === 0
        ? []
        : await versionsOf(http, `${mr}/versions`);
      const reviewers = await http.list(`${mr}/reviewers`, { per_page: "100" });
      const changes = http.decode(
        reviewers.what,
        reviewers.items,
        (items) =>
          items.list().flatMap((reviewer): Review[] => {
            const state = reviewer.object().get("state").string(NAME);
            if (state !== "requested_changes") return [];
            const user = reviewer.get("user").object();
            return [{
              user: user.get("username").string(NAME),
              state: "changes_requested",
            }];
          }),
      );
      const approved = approvals.map((approval): Review => {
        const commitSha = approvedHead(approval.at, heads);
        return {
          user: approval.user,
          state: "approved",
          ...(commitSha ? { commitSha } : {}),
          ...(approval.at ? { submittedAt: approval.at } : {}),
        };
      }).sort((a, b) =>
        (a.submittedAt ?? "").localeCompare(b.submittedAt ?? "")
      );
      return [...approved, ...changes];
    },
    async permission(user: string): Promise<Permission> {
      const users = await http.request("GET", "/users", {
        query: { username: checkedUser(user) },
      });
      const id = http.decode(users.what, users.body, (body) => {
        const found = body.list().find((item) =>
          item.object().get("username").string(NAME) === user
        );
        return found === undefined ? undefined : idOf(found.get("id"));
      });
      if (id === undefined) return "none";
      const answer = await http.request(
        "GET",
        project + apiPath`/members/all/${id}`,
        { allow: [404] },
      );
      if (answer.status === 404) return "none";
      return http.decode(answer.what, answer.body, (body) => {
        const member = body.object();
        const state = member.get("state").value;
        if (state !== undefined && state !== "active") return "none";
        return accessPermission(member.get("access_level").integer());
      });
    },
    handedPlans: (query: HandoffQuery): Promise<PlanClaim[]> =>
      handedPlans(http, project, query),
    async keepPlanComment(iid: number, marker: string, body: string) {
      const own = await ownLogin(http, "username");
      const notes = project + apiPath`/merge_requests/${iid}/notes`;
      return await keepComment(
        http,
        {
          list: notes,
          query: { per_page: "100", sort: "asc", order_by: "created_at" },
          create: notes,
          edit: (id) => ["PUT", notes + apiPath`/${id}`],
          authorKey: "author",
          loginKey: "username",
        },
        own,
        marker,
        body,
      );
    },
    postWaveStatus: (sha: string, status: WaveStatus) =>
      postStatus(http, project, checkedSha(sha), statusBody(status, "gitlab")),
  };
}

function mergeRequest(mr: JsonReader): PullRequest {
  mr.object();
  const mergeSha = optionalSha(mr.get("merge_commit_sha")) ??
    optionalSha(mr.get("squash_commit_sha"));
  return {
    number: mr.get("iid").integer(),
    author: mr.get("author").object().get("username").string(NAME),
    merged: mr.get("state").string(NAME) === "merged",
    headSha: mr.get("sha").fullSha(),
    ...(mergeSha ? { mergeSha } : {}),
  };
}

interface Approval {
  user: string;
  at?: string;
}

async function approvalsOf(http: ForgeHttp, path: string): Promise<Approval[]> {
  const answer = await http.request("GET", path);
  return http.decode(
    answer.what,
    answer.body,
    (body) =>
      body.object().get("approved_by").list().map((entry) => {
        entry.object();
        const user = entry.get("user").object().get("username").string(NAME);
        const at = entry.get("approved_at").optional(timeOf);
        return at === undefined ? { user } : { user, at };
      }),
  );
}

interface Version {
  head: string;
  at: string;
}

async function versionsOf(http: ForgeHttp, path: string): Promise<Version[]> {
  const list = await http.list(path, { per_page: "100" });
  return http.decode(
    list.what,
    list.items,
    (items) =>
      items.list().map((version) => ({
        head: version.object().get("head_commit_sha").fullSha(),
        at: timeOf(version.get("created_at")),
      })),
  );
}

/** The head an approval at `at` approved (see the module doc). */
function approvedHead(
  at: string | undefined,
  versions: Version[],
): string | undefined {
  if (at === undefined) {
    return versions.length === 1 ? versions[0].head : undefined;
  }
  const before = versions.filter((version) => version.at <= at)
    .sort((a, b) => a.at.localeCompare(b.at));
  return before.at(-1)?.head;
}

/**
 * GitLab access levels as permissions: Owner (50) and above `admin`, Maintainer
 * (40) `maintain`, Developer (30) `write`, Reporter (20) `triage`, Planner,
 * Guest and Minimal access `read`, no access `none`.
 */
function accessPermission(level: number): Permission {
  if (level >= 50) return "admin";
  if (level >= 40) return "maintain";
  if (level >= 30) return "write";
  if (level >= 20) return "triage";
  return level > 0 ? "read" : "none";
}

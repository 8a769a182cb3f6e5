/**
 * The GitLab (REST v4) endpoints the fake serves, answering with the documented
 * example shapes (`tests/fixtures/forge/gitlab/`) filled from the test's state;
 * a job's artifact file is served raw, as GitLab streams it out of the archive.
 * Tests only.
 * @module
 */

import {
  type FakeAnswer,
  type FakeRoute,
  type FakeState,
  fixture,
  pageOf,
  type PageStyle,
  SEGMENT,
} from "./_fake_forge_core.ts";
import { commentRoutes } from "./_fake_comments.ts";

const S = SEGMENT;
const FINISHED = ["success", "failed", "canceled", "skipped"];

/**
 * The GitLab routes over a state.
 * @param state The state to answer from and change.
 * @param style How lists are paged.
 * @returns The routes.
 */
export function gitlabRoutes(state: FakeState, style: PageStyle): FakeRoute[] {
  const notFound = (what = "404 Not found"): FakeAnswer => ({
    status: 404,
    body: { ...fixture("gitlab", "error"), message: what },
  });
  const ours = (project: string) => project === state.repository;
  const jobBody = (job: FakeState["jobs"][number]) => {
    const body = fixture("gitlab", "job");
    Object.assign(body, {
      id: job.id,
      name: job.name,
      status: job.status,
      pipeline: { ...(body.pipeline as object), id: job.pipeline },
      web_url: `https://example.com/foo/bar/-/jobs/${job.id}`,
      ...(job.user === undefined
        ? {}
        : { user: { ...(body.user as object), username: job.user } }),
    });
    return body;
  };
  const user = (username: string) => ({
    ...fixture("gitlab", "user"),
    username,
    id: state.members.get(username)?.id ?? 0,
  });
  return [
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/jobs/(\\d+)$`),
      query: [],
      body: "none",
      handle({ params: [project, id] }) {
        const job = state.jobs.find((candidate) => candidate.id === Number(id));
        if (!ours(project) || job === undefined) {
          return notFound("404 Job Not Found");
        }
        return { status: 200, body: jobBody(job) };
      },
    },
    {
      method: "GET",
      path: /^\/user$/,
      query: [],
      body: "none",
      handle() {
        return state.tokenUser === undefined
          ? { status: 401, body: { message: "401 Unauthorized" } }
          : { status: 200, body: user(state.tokenUser) };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/pipelines/${S}/jobs$`),
      query: ["per_page", "page", "include_retried", "scope"],
      body: "none",
      handle({ params: [project, pipeline], url }) {
        const all = state.jobs.filter((job) =>
          job.pipeline === Number(pipeline)
        )
          .sort((a, b) => b.id - a.id);
        if (!ours(project) || all.length === 0) {
          return notFound("404 Pipeline Not Found");
        }
        const retried = url.searchParams.get("include_retried") === "true";
        const jobs = retried
          ? all
          : all.filter((job, i) =>
            all.findIndex((other) => other.name === job.name) === i
          );
        return pageOf(url, jobs.map(jobBody), style);
      },
    },
    {
      method: "POST",
      path: new RegExp(`^/projects/${S}/jobs/${S}/retry$`),
      query: [],
      body: "none",
      handle({ params: [project, id] }) {
        const job = state.jobs.find((candidate) => candidate.id === Number(id));
        if (!ours(project) || job === undefined) {
          return notFound("404 Job Not Found");
        }
        if (!FINISHED.includes(job.status)) {
          return {
            status: 403,
            body: { message: "403 Forbidden - Job is not retryable" },
          };
        }
        const next = {
          id: Math.max(...state.jobs.map((other) => other.id)) + 1,
          name: job.name,
          status: "pending",
          pipeline: job.pipeline,
        };
        state.jobs.push(next);
        state.retries.push(job.id);
        return { status: 201, body: jobBody(next) };
      },
    },
    {
      method: "GET",
      path: new RegExp(
        `^/projects/${S}/repository/commits/${S}/merge_requests$`,
      ),
      query: ["per_page", "page"],
      body: "none",
      handle({ params: [project, sha], url }) {
        if (!ours(project)) return notFound();
        const mrs = state.pulls.filter((pull) =>
          pull.headSha === sha || pull.mergeSha === sha ||
          (pull.commits ?? []).includes(sha)
        ).map((pull) => {
          const body = fixture("gitlab", "merge-request");
          Object.assign(body, {
            iid: pull.number,
            state: pull.merged ? "merged" : "opened",
            author: { ...(body.author as object), username: pull.author },
            sha: pull.headSha,
            merge_commit_sha: pull.mergeSha ?? null,
          });
          return body;
        });
        return pageOf(url, mrs, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/merge_requests/${S}/approvals$`),
      query: [],
      body: "none",
      handle({ params: [project, iid] }) {
        if (!ours(project)) return notFound();
        const body = fixture("gitlab", "merge-request-approvals");
        const approvals = state.approvals.get(Number(iid)) ?? [];
        Object.assign(body, {
          iid: Number(iid),
          approved_by: approvals.map((approval) => {
            const entry: Record<string, unknown> = {
              user: user(approval.user),
            };
            if (approval.approvedAt) entry.approved_at = approval.approvedAt;
            return entry;
          }),
        });
        return { status: 200, body };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/merge_requests/${S}/versions$`),
      query: ["per_page", "page"],
      body: "none",
      handle({ params: [project, iid], url }) {
        if (!ours(project)) return notFound();
        const versions = [...(state.versions.get(Number(iid)) ?? [])].reverse()
          .map((version, i) => ({
            ...fixture("gitlab", "merge-request-version"),
            id: 100 + i,
            head_commit_sha: version.head,
            created_at: version.createdAt,
          }));
        return pageOf(url, versions, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/merge_requests/${S}/reviewers$`),
      query: ["per_page", "page"],
      body: "none",
      handle({ params: [project, iid], url }) {
        if (!ours(project)) return notFound();
        const reviewers = (state.reviewers.get(Number(iid)) ?? []).map(
          (reviewer) => ({
            ...fixture("gitlab", "merge-request-reviewer"),
            user: user(reviewer.user),
            state: reviewer.state,
          }),
        );
        return pageOf(url, reviewers, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/merge_requests/${S}/pipelines$`),
      query: ["per_page", "page"],
      body: "none",
      handle({ params: [project, iid], url }) {
        if (!ours(project)) return notFound();
        const pipelines = [
          ...(state.mergeRequestPipelines.get(Number(iid)) ?? []),
        ].reverse().map((pipeline) => ({
          ...fixture("gitlab", "merge-request-pipeline"),
          id: pipeline.id,
          sha: pipeline.sha,
          ref: pipeline.ref,
          status: pipeline.status,
        }));
        return pageOf(url, pipelines, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/jobs/${S}/artifacts/(.+)$`),
      query: ["job_token"],
      body: "none",
      handle({ params: [project, id, path] }) {
        const job = state.jobs.find((candidate) => candidate.id === Number(id));
        if (!ours(project) || job === undefined) {
          return notFound("404 Job Not Found");
        }
        const text = state.artifacts.get(job.id)?.get(path);
        if (text === undefined) return notFound("404 Not found");
        return { status: 200, raw: text };
      },
    },
    {
      method: "GET",
      path: /^\/users$/,
      query: ["username", "per_page", "page"],
      body: "none",
      handle({ url }) {
        const username = url.searchParams.get("username") ?? "";
        const found = state.members.has(username) ? [user(username)] : [];
        return pageOf(url, found, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/projects/${S}/members/all/${S}$`),
      query: [],
      body: "none",
      handle({ params: [project, id] }) {
        const entry = [...state.members.entries()].find(([, member]) =>
          member.id === Number(id)
        );
        if (!ours(project) || entry?.[1].accessLevel === undefined) {
          return notFound("404 Member Not Found");
        }
        const [username, member] = entry;
        return {
          status: 200,
          body: {
            ...fixture("gitlab", "project-member"),
            id: member.id,
            username,
            state: member.state ?? "active",
            access_level: member.accessLevel,
          },
        };
      },
    },
    ...commentRoutes("gitlab", state, style, () => notFound()),
  ];
}

/**
 * The GitHub endpoints the fake serves, answering with the documented example
 * shapes (`tests/fixtures/forge/github/`) filled from the test's state; the
 * commit status endpoints are `_fake_statuses.ts`'s. Tests only.
 * @module
 */

import {
  type FakeAnswer,
  type FakeRoute,
  type FakeState,
  fixture,
  objectBody,
  pageOf,
  type PageStyle,
  ProtocolViolation,
  SEGMENT,
} from "./_fake_forge_core.ts";
import { statusRoutes } from "./_fake_statuses.ts";
import { commentRoutes } from "./_fake_comments.ts";

const S = SEGMENT;

/**
 * The GitHub routes over a state.
 * @param state The state to answer from and change.
 * @param style How lists are paged.
 * @returns The routes.
 */
export function githubRoutes(state: FakeState, style: PageStyle): FakeRoute[] {
  const notFound = (): FakeAnswer => ({
    status: 404,
    body: fixture("github", "basic-error"),
  });
  const ours = (owner: string, name: string) =>
    `${owner}/${name}` === state.repository;
  return [
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/actions/runs/${S}$`),
      query: [],
      body: "none",
      handle({ params: [owner, name, id] }) {
        const run = state.runs.get(id);
        if (!ours(owner, name) || run === undefined) return notFound();
        const body = fixture("github", "workflow-run");
        const user = (login: string) => ({
          ...(body.actor as object),
          login,
          type: run.bot ? "Bot" : "User",
        });
        const actor = run.actor ?? "octocat";
        Object.assign(body, {
          id: Number(id),
          ...(run.event ? { event: run.event } : {}),
          ...(run.path ? { path: run.path } : {}),
          ...(run.title ? { display_title: run.title } : {}),
          ...(run.branch ? { head_branch: run.branch } : {}),
          actor: user(actor),
          triggering_actor: user(run.triggeringActor ?? actor),
          status: run.status,
          conclusion: run.status === "completed"
            ? run.conclusion ?? "failure"
            : null,
          run_attempt: run.attempt,
        });
        return { status: 200, body };
      },
    },
    {
      method: "POST",
      path: new RegExp(
        `^/repos/${S}/${S}/actions/runs/${S}/rerun-failed-jobs$`,
      ),
      query: [],
      body: "json",
      handle({ params: [owner, name, id], json }) {
        const keys = Object.keys(objectBody(json));
        if (keys.some((key) => key !== "enable_debug_logging")) {
          throw new ProtocolViolation(`unexpected body members ${keys}`);
        }
        const run = state.runs.get(id);
        if (!ours(owner, name) || run === undefined) return notFound();
        if (run.status !== "completed") {
          return {
            status: 403,
            body: { message: "This workflow run is not completed" },
          };
        }
        run.status = "queued";
        run.attempt += 1;
        state.reruns.push(id);
        return { status: 201, body: {} };
      },
    },
    {
      method: "POST",
      path: new RegExp(`^/repos/${S}/${S}/actions/runs/${S}/rerun$`),
      query: [],
      body: "json",
      handle({ params: [owner, name, id], json }) {
        const keys = Object.keys(objectBody(json));
        if (keys.some((key) => key !== "enable_debug_logging")) {
          throw new ProtocolViolation(`unexpected body members ${keys}`);
        }
        const run = state.runs.get(id);
        if (!ours(owner, name) || run === undefined) return notFound();
        if (run.status !== "completed") {
          return {
            status: 403,
            body: { message: "This workflow run is not completed" },
          };
        }
        run.status = "queued";
        run.attempt += 1;
        state.reruns.push(`${id} (every job)`);
        return { status: 201, body: {} };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/commits/${S}/pulls$`),
      query: ["per_page", "page"],
      body: "none",
      handle({ params: [owner, name, sha], url }) {
        if (!ours(owner, name)) return notFound();
        const pulls = state.pulls.filter((pull) =>
          pull.headSha === sha || pull.mergeSha === sha ||
          (pull.commits ?? []).includes(sha)
        ).map((pull) => {
          const body = fixture("github", "pull-request-simple");
          Object.assign(body, {
            number: pull.number,
            user: { ...(body.user as object), login: pull.author },
            state: pull.merged ? "closed" : "open",
            merged_at: pull.merged ? "2011-01-26T19:01:12Z" : null,
            merge_commit_sha: pull.mergeSha ?? null,
            head: { ...(body.head as object), sha: pull.headSha },
          });
          return body;
        });
        return pageOf(url, pulls, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/pulls/${S}/reviews$`),
      query: ["per_page", "page"],
      body: "none",
      handle({ params: [owner, name, number], url }) {
        if (!ours(owner, name)) return notFound();
        const reviews = (state.reviews.get(Number(number)) ?? []).map(
          (review, i) => {
            const body = fixture("github", "pull-request-review");
            Object.assign(body, {
              id: i + 1,
              user: review.user === null
                ? null
                : { ...(body.user as object), login: review.user },
              state: review.state,
              commit_id: review.commitId === undefined
                ? body.commit_id
                : review.commitId,
            });
            if (review.submittedAt === undefined) delete body.submitted_at;
            else body.submitted_at = review.submittedAt;
            return body;
          },
        );
        return pageOf(url, reviews, style);
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/collaborators/${S}/permission$`),
      query: [],
      body: "none",
      handle({ params: [owner, name, user] }) {
        const role = state.permissions.get(user);
        if (!ours(owner, name) || role === undefined) return notFound();
        const body = fixture("github", "repository-collaborator-permission");
        const legacy = role === "maintain"
          ? "write"
          : role === "triage"
          ? "read"
          : role;
        Object.assign(body, {
          permission: legacy,
          role_name: role,
          user: { ...(body.user as object), login: user },
        });
        return { status: 200, body };
      },
    },
    {
      method: "GET",
      path: /^\/user$/,
      query: [],
      body: "none",
      handle() {
        if (state.tokenUser === undefined) {
          return {
            status: 403,
            body: {
              ...fixture("github", "basic-error"),
              message: "Resource not accessible by integration",
            },
          };
        }
        return { status: 200, body: { login: state.tokenUser, type: "User" } };
      },
    },
    ...statusRoutes("github", state, style, notFound),
    ...commentRoutes("github", state, style, notFound),
  ];
}

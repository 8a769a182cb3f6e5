/**
 * The Forgejo (REST v1) endpoints the fake serves, answering with instances of
 * the swagger definitions (`tests/fixtures/forge/forgejo/`) filled from the
 * test's state; the commit status endpoints are `_fake_statuses.ts`'s. Tests
 * only.
 * @module
 */

import {
  type FakeAnswer,
  type FakeRoute,
  type FakeRun,
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

/** The definition a list of runs answers with: current, or Forgejo 12's. */
export type ForgejoRunShape = "ActionRun" | "RepoActionRun";

/**
 * The Forgejo routes over a state.
 * @param state The state to answer from and change.
 * @param style How lists are paged.
 * @param runShape The definition `GET …/actions/runs` answers with.
 * @returns The routes.
 */
export function forgejoRoutes(
  state: FakeState,
  style: PageStyle,
  runShape: ForgejoRunShape,
): FakeRoute[] {
  const notFound = (): FakeAnswer => ({
    status: 404,
    body: fixture("forgejo", "api-error"),
  });
  const ours = (owner: string, name: string) =>
    `${owner}/${name}` === state.repository;
  return [
    {
      method: "POST",
      path: new RegExp(`^/repos/${S}/${S}/actions/workflows/${S}/dispatches$`),
      query: [],
      body: "json",
      handle({ params: [owner, name, workflow], json }) {
        const body = objectBody(json);
        const allowed = ["ref", "inputs", "return_run_info"];
        const extra = Object.keys(body).filter((key) => !allowed.includes(key));
        if (extra.length > 0) {
          throw new ProtocolViolation(`unexpected body members ${extra}`);
        }
        if (typeof body.ref !== "string" || body.ref === "") {
          throw new ProtocolViolation("ref is empty");
        }
        const refs = state.workflows.get(workflow);
        if (!ours(owner, name) || !refs?.includes(body.ref)) return notFound();
        state.dispatches.push({ workflow, ref: body.ref });
        return { status: 204 };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/commits/${S}/pull$`),
      query: [],
      body: "none",
      handle({ params: [owner, name, sha] }) {
        const pull = state.pulls.find((candidate) =>
          candidate.mergeSha === sha
        );
        if (!ours(owner, name) || pull === undefined) return notFound();
        const body = fixture("forgejo", "pull-request");
        Object.assign(body, {
          number: pull.number,
          user: { ...(body.user as object), login: pull.author },
          merged: pull.merged,
          merge_commit_sha: pull.mergeSha,
          head: { ...(body.head as object), sha: pull.headSha },
        });
        return { status: 200, body };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/pulls/${S}/reviews$`),
      query: ["page", "limit"],
      body: "none",
      handle({ params: [owner, name, index], url }) {
        if (!ours(owner, name)) return notFound();
        const reviews = (state.reviews.get(Number(index)) ?? []).map(
          (review, i) => {
            const body = fixture("forgejo", "pull-review");
            Object.assign(body, {
              id: i + 1,
              user: review.user === null
                ? null
                : { ...(body.user as object), login: review.user },
              state: review.state,
              commit_id: review.commitId ?? body.commit_id,
              dismissed: review.dismissed ?? false,
              submitted_at: review.submittedAt ?? body.submitted_at,
            });
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
        const permission = state.permissions.get(user);
        if (!ours(owner, name) || permission === undefined) return notFound();
        const body = fixture("forgejo", "repo-collaborator-permission");
        Object.assign(body, {
          permission,
          role_name: permission,
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
        // A job's automatic token is the runner's own user.
        const body = fixture("forgejo", "pull-review").user as object;
        const login = state.tokenUser ?? "forgejo-actions";
        return { status: 200, body: { ...body, login } };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/actions/runs$`),
      query: [
        "page",
        "limit",
        "event",
        "status",
        "run_number",
        "head_sha",
        "ref",
        "workflow_id",
      ],
      body: "none",
      handle({ params: [owner, name], url }) {
        if (!ours(owner, name)) return notFound();
        const wanted = url.searchParams.get("run_number");
        if (wanted !== null && !/^[1-9]\d*$/.test(wanted)) {
          throw new ProtocolViolation('"run_number" is not a positive integer');
        }
        const runs = [...state.runs]
          .filter(([number]) => wanted === null || number === wanted)
          .map(([number, run]) =>
            runBody(state.repository, number, run, runShape)
          );
        return {
          status: 200,
          body: { total_count: runs.length, workflow_runs: runs },
        };
      },
    },
    ...statusRoutes("forgejo", state, style, notFound),
    ...commentRoutes("forgejo", state, style, notFound),
  ];
}

/** A run's status in Forgejo's words (`waiting`, `running`, `success`, …). */
function forgejoStatus(run: FakeRun): string {
  if (run.status === "queued") return "waiting";
  if (run.status === "in_progress") return "running";
  return run.conclusion ?? "failure";
}

/**
 * One run as Forgejo lists it: an `ActionRun` (the dispatch's inputs in its
 * `event_payload`) or Forgejo 12's `RepoActionRun`.
 */
function runBody(
  repository: string,
  number: string,
  run: FakeRun,
  shape: ForgejoRunShape,
): Record<string, unknown> {
  const file = shape === "ActionRun" ? "action-run" : "repo-action-run";
  const body = fixture("forgejo", file);
  const userKey = shape === "ActionRun" ? "trigger_user" : "triggering_actor";
  const login = run.triggeringActor ?? run.actor;
  const workflow = run.path?.slice(run.path.lastIndexOf("/") + 1);
  const html = `https://forgejo.example/${repository}/actions/runs/${number}`;
  Object.assign(body, {
    id: 1000 + Number(number),
    status: forgejoStatus(run),
    ...(run.event ? { event: run.event } : {}),
    ...(workflow ? { workflow_id: workflow } : {}),
    ...(login ? { [userKey]: { ...(body[userKey] as object), login } } : {}),
  });
  if (shape === "RepoActionRun") {
    return Object.assign(body, {
      run_number: Number(number),
      url: html,
      ...(run.title ? { name: run.title } : {}),
    });
  }
  const payload = JSON.parse(body.event_payload as string);
  return Object.assign(body, {
    index_in_repo: Number(number),
    html_url: html,
    ...(run.title ? { title: run.title } : {}),
    ...(run.event ? { trigger_event: run.event } : {}),
    event_payload: JSON.stringify({
      ...payload,
      ...(run.inputs ? { inputs: run.inputs } : {}),
      ...(workflow ? { workflow: `.forgejo/workflows/${workflow}` } : {}),
    }),
  });
}

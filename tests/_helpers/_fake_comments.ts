/**
 * The comment and note endpoints the fake forges serve, each in its forge's
 * own words: GitHub `GET`/`POST /repos/{o}/{r}/issues/{n}/comments`
 * (`per_page`, `page`, `Link`) and `PATCH /repos/{o}/{r}/issues/comments/{id}`;
 * Forgejo the same paths, its list whole (`since`, `before` only); GitLab
 * `GET`/`POST /projects/:id/merge_requests/:iid/notes` (`sort`, `order_by`,
 * `per_page`, `page`, `x-next-page`), `PUT …/notes/:note_id` and `POST
 * /projects/:id/statuses/:sha` (`state` of `pending`, `running`, `success`,
 * `failed`, `canceled`, `skipped`; `name`/`context`, `target_url`,
 * `description`). The comment's author is the token's user (`tokenUser`, else
 * the forge's own bot). Tests only.
 * @module
 */

import type { Forge } from "../../src/ci/forges.ts";
import {
  type FakeAnswer,
  type FakeComment,
  type FakeRoute,
  type FakeState,
  fixture,
  objectBody,
  pageOf,
  type PageStyle,
  ProtocolViolation,
  SEGMENT,
} from "./_fake_forge_core.ts";

const S = SEGMENT;

/** Who a comment made with the token is by, when the test names no user. */
const BOT: Record<Forge, string> = {
  github: "github-actions[bot]",
  forgejo: "forgejo-actions",
  gitlab: "project_42_bot",
};

/**
 * The comment routes of a forge over a state.
 * @param forge The forge.
 * @param state The state to answer from and change.
 * @param style How lists are paged.
 * @param notFound The forge's 404.
 * @returns The routes.
 */
export function commentRoutes(
  forge: Forge,
  state: FakeState,
  style: PageStyle,
  notFound: () => FakeAnswer,
): FakeRoute[] {
  const author = () => state.tokenUser ?? BOT[forge];
  const nextId = () => 1000 + [...state.comments.values()].flat().length;
  const bodyText = (json: unknown, allowed: string[]) => {
    const body = objectBody(json);
    const extra = Object.keys(body).filter((key) => !allowed.includes(key));
    if (extra.length > 0) {
      throw new ProtocolViolation(`unexpected body members ${extra}`);
    }
    if (typeof body.body !== "string" || body.body === "") {
      throw new ProtocolViolation("body is not a non-empty string");
    }
    return body.body;
  };
  const find = (id: string) => {
    for (const list of state.comments.values()) {
      const found = list.find((c) => c.id === Number(id));
      if (found) return found;
    }
    return undefined;
  };
  if (forge === "gitlab") {
    const note = (comment: FakeComment) => {
      const body = fixture("gitlab", "note");
      Object.assign(body, {
        id: comment.id,
        body: comment.body,
        author: {
          ...(body.author as object),
          username: comment.author,
        },
      });
      return body;
    };
    const ours = (project: string) => project === state.repository;
    return [
      {
        method: "GET",
        path: new RegExp(`^/projects/${S}/merge_requests/${S}/notes$`),
        query: ["sort", "order_by", "per_page", "page"],
        body: "none",
        handle({ params: [project, iid], url }) {
          if (!ours(project)) return notFound();
          const list = [...(state.comments.get(Number(iid)) ?? [])];
          // GitLab's default is newest first.
          if (url.searchParams.get("sort") !== "asc") list.reverse();
          return pageOf(url, list.map(note), style);
        },
      },
      {
        method: "POST",
        path: new RegExp(`^/projects/${S}/merge_requests/${S}/notes$`),
        query: [],
        body: "json",
        handle({ params: [project, iid], json }) {
          const text = bodyText(json, ["body", "internal", "created_at"]);
          if (!ours(project)) return notFound();
          const comment = {
            id: nextId(),
            author: author(),
            body: text,
            edits: 0,
          };
          const list = state.comments.get(Number(iid)) ?? [];
          list.push(comment);
          state.comments.set(Number(iid), list);
          return { status: 201, body: note(comment) };
        },
      },
      {
        method: "PUT",
        path: new RegExp(`^/projects/${S}/merge_requests/${S}/notes/${S}$`),
        query: [],
        body: "json",
        handle({ params: [project, iid, id], json }) {
          const text = bodyText(json, ["body"]);
          const comment = find(id);
          if (
            !ours(project) || comment === undefined ||
            !(state.comments.get(Number(iid)) ?? []).includes(comment)
          ) return notFound();
          if (comment.author !== author()) {
            return { status: 403, body: { message: "403 Forbidden" } };
          }
          comment.body = text;
          comment.edits += 1;
          return { status: 200, body: note(comment) };
        },
      },
      {
        method: "POST",
        path: new RegExp(`^/projects/${S}/statuses/${S}$`),
        query: [],
        body: "json",
        handle({ params: [project, sha], json }) {
          const body = objectBody(json);
          const allowed = [
            "state",
            "ref",
            "name",
            "context",
            "target_url",
            "description",
            "coverage",
            "pipeline_id",
          ];
          const extra = Object.keys(body).filter((k) => !allowed.includes(k));
          if (extra.length > 0) {
            throw new ProtocolViolation(`unexpected body members ${extra}`);
          }
          const states = [
            "pending",
            "running",
            "success",
            "failed",
            "canceled",
            "skipped",
          ];
          if (typeof body.state !== "string" || !states.includes(body.state)) {
            throw new ProtocolViolation(`state "${body.state}" is not allowed`);
          }
          if (!ours(project) || !/^[0-9a-f]{40}$/.test(sha)) return notFound();
          const list = state.gitlabStatuses.get(sha) ?? [];
          const status = {
            id: 1 + [...state.gitlabStatuses.values()].flat().length,
            state: body.state,
            context: String(body.name ?? body.context ?? "default"),
            ...(typeof body.description === "string"
              ? { description: body.description }
              : {}),
            ...(typeof body.target_url === "string"
              ? { targetUrl: body.target_url }
              : {}),
          };
          list.push(status);
          state.gitlabStatuses.set(sha, list);
          const answer = fixture("gitlab", "commit-status");
          Object.assign(answer, {
            id: status.id,
            sha,
            status: status.state,
            name: status.context,
            description: status.description ?? null,
            target_url: status.targetUrl ?? null,
          });
          return { status: 201, body: answer };
        },
      },
    ];
  }
  const ours = (owner: string, name: string) =>
    `${owner}/${name}` === state.repository;
  const shape = forge === "github" ? "issue-comment" : "comment";
  const comment = (c: FakeComment) => {
    const body = fixture(forge, shape);
    Object.assign(body, {
      id: c.id,
      body: c.body,
      user: { ...(body.user as object), login: c.author },
    });
    return body;
  };
  return [
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/issues/${S}/comments$`),
      query: forge === "github" ? ["per_page", "page", "since"] : [
        "since",
        "before",
      ],
      body: "none",
      handle({ params: [owner, name, number], url }) {
        if (!ours(owner, name)) return notFound();
        const list = (state.comments.get(Number(number)) ?? []).map(comment);
        return forge === "github"
          ? pageOf(url, list, style)
          : { status: 200, body: list };
      },
    },
    {
      method: "POST",
      path: new RegExp(`^/repos/${S}/${S}/issues/${S}/comments$`),
      query: [],
      body: "json",
      handle({ params: [owner, name, number], json }) {
        const text = bodyText(json, ["body"]);
        if (!ours(owner, name)) return notFound();
        const made = { id: nextId(), author: author(), body: text, edits: 0 };
        const list = state.comments.get(Number(number)) ?? [];
        list.push(made);
        state.comments.set(Number(number), list);
        return { status: 201, body: comment(made) };
      },
    },
    {
      method: "PATCH",
      path: new RegExp(`^/repos/${S}/${S}/issues/comments/${S}$`),
      query: [],
      body: "json",
      handle({ params: [owner, name, id], json }) {
        const text = bodyText(json, ["body"]);
        const found = find(id);
        if (!ours(owner, name) || found === undefined) return notFound();
        if (found.author !== author()) {
          return { status: 403, body: { message: "Forbidden" } };
        }
        found.body = text;
        found.edits += 1;
        return { status: 200, body: comment(found) };
      },
    },
  ];
}

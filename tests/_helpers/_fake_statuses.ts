/**
 * The commit status endpoints the GitHub and Forgejo fakes share, each in its
 * forge's own words: GitHub `POST /repos/{o}/{r}/statuses/{sha}` (state
 * `error`, `failure`, `pending` or `success`; `target_url`, `description`,
 * `context` default `default`) answered `201` with a `status`, and `GET
 * /repos/{o}/{r}/commits/{ref}/statuses` newest first (`per_page`, `page`);
 * Forgejo the same paths with `CreateStatusOption` in and `CommitStatus` out
 * (the state in `status`, `warning` allowed, `limit`/`page`/`sort`/`state`
 * query). Tests only.
 * @module
 */

import {
  type FakeAnswer,
  type FakeRoute,
  type FakeState,
  type FakeStatus,
  fixture,
  objectBody,
  pageOf,
  type PageStyle,
  ProtocolViolation,
  SEGMENT,
} from "./_fake_forge_core.ts";

const S = SEGMENT;

/**
 * The two status routes of a forge over a state.
 * @param forge `github` or `forgejo`.
 * @param state The state to answer from and change.
 * @param style How lists are paged.
 * @param notFound The forge's 404.
 * @returns The routes.
 */
export function statusRoutes(
  forge: "github" | "forgejo",
  state: FakeState,
  style: PageStyle,
  notFound: () => FakeAnswer,
): FakeRoute[] {
  const ours = (owner: string, name: string) =>
    `${owner}/${name}` === state.repository;
  const states = ["error", "failure", "pending", "success"];
  if (forge === "forgejo") states.push("warning");
  const answer = (status: FakeStatus) => {
    const body = fixture(
      forge,
      forge === "github" ? "status" : "commit-status",
    );
    Object.assign(body, {
      id: status.id,
      [forge === "github" ? "state" : "status"]: status.state,
      description: status.description ?? (forge === "github" ? null : ""),
      target_url: status.targetUrl ?? (forge === "github" ? null : ""),
      context: status.context,
    });
    return body;
  };
  return [
    {
      method: "POST",
      path: new RegExp(`^/repos/${S}/${S}/statuses/${S}$`),
      query: [],
      body: "json",
      handle({ params: [owner, name, sha], json }) {
        const body = objectBody(json);
        const allowed = ["state", "target_url", "description", "context"];
        const extra = Object.keys(body).filter((key) => !allowed.includes(key));
        if (extra.length > 0) {
          throw new ProtocolViolation(`unexpected body members ${extra}`);
        }
        if (typeof body.state !== "string" || !states.includes(body.state)) {
          throw new ProtocolViolation(`state "${body.state}" is not allowed`);
        }
        for (const key of ["target_url", "description", "context"]) {
          if (body[key] !== undefined && typeof body[key] !== "string") {
            throw new ProtocolViolation(`${key} is not a string`);
          }
        }
        if (!ours(owner, name) || !/^[0-9a-f]{40}$/.test(sha)) {
          return notFound();
        }
        const list = state.statuses.get(sha) ?? [];
        const id = 1 + [...state.statuses.values()].flat().length;
        const status: FakeStatus = {
          id,
          state: body.state,
          context: (body.context as string | undefined) ??
            (forge === "github" ? "default" : ""),
          ...(body.description === undefined
            ? {}
            : { description: body.description as string }),
          ...(body.target_url === undefined
            ? {}
            : { targetUrl: body.target_url as string }),
        };
        list.push(status);
        state.statuses.set(sha, list);
        return { status: 201, body: answer(status) };
      },
    },
    {
      method: "GET",
      path: new RegExp(`^/repos/${S}/${S}/commits/${S}/statuses$`),
      query: forge === "github"
        ? ["per_page", "page"]
        : ["sort", "state", "page", "limit"],
      body: "none",
      handle({ params: [owner, name, ref], url }) {
        if (!ours(owner, name)) return notFound();
        const all = [...(state.statuses.get(ref) ?? [])].reverse();
        return pageOf(url, all.map(answer), style);
      },
    },
  ];
}

/**
 * What the plan job of a pull or merge request says on the forge (SPEC.md
 * §18), the forge-neutral part: one comment kept up to date (found by its
 * marker, and only among the comments of the token's own user, so a marker
 * someone else pasted is never edited or trusted), and a commit status per
 * wave. Each client says where its comments are and how it names their
 * authors; this module lists, matches, creates or edits. What it posts is
 * information: a comment or status here never approves anything (§4.12).
 * @module
 */

import type { JsonReader } from "../input/json_reader.ts";
import { NAME } from "./_answer_reader.ts";
import type { ForgeHttp, HttpMethod } from "./forge_http.ts";
import { apiPath } from "./forge_env.ts";

/** What keeping the comment did. */
export interface CommentKept {
  /** `created` the first time, `edited` after. */
  action: "created" | "edited";
  /** The comment's (GitLab: note's) id. */
  id: number;
}

/** A commit status of one wave of a request's head. */
export interface WaveStatus {
  /** `chant-wave/<name>/plan/<wave>`. */
  context: string;
  /** `success` when the wave planned, `failure` when a run failed to plan. */
  state: "success" | "failure";
  /** `3 to change, waits for 2 approvals` (cut to {@linkcode MAX_STATUS_DESCRIPTION}). */
  description: string;
  /** The job's URL, when known. */
  targetUrl?: string;
}

/** GitHub keeps 140 characters of a status's description. */
export const MAX_STATUS_DESCRIPTION = 140;

/**
 * The context of a wave's plan status: apart from the `chant-wave/<name>/wave-`
 * statuses that hand plans to the merged commit (`plans_handoff.ts`), which
 * read every status under their prefix.
 * @param name The spec's `name`.
 * @param wave The wave's name.
 * @returns `chant-wave/<name>/plan/<wave>`.
 * @example
 * ```ts
 * planStatusContext("tf", "prod"); // "chant-wave/tf/plan/prod"
 * ```
 */
export function planStatusContext(name: string, wave: string): string {
  return `chant-wave/${name}/plan/${wave}`;
}

/** Where one forge keeps a request's comments, and how it names their authors. */
export interface CommentPlace {
  /** The list's path (paged by the client's `list`). */
  list: string;
  /** The list's first-page query (page size, order). */
  query: Readonly<Record<string, string>>;
  /** Where a new comment is posted. */
  create: string;
  /** Where comment `id` is edited, and with which method. */
  edit: (id: number) => [HttpMethod, string];
  /** Where a comment's author login is: GitHub/Forgejo `user`, GitLab `author`. */
  authorKey: "user" | "author";
  /** The login field in it: `login`, GitLab `username`. */
  loginKey: "login" | "username";
}

/**
 * Where GitHub and Forgejo keep a pull request's comments: its issue's.
 * @param repo The repository's API path (`/repos/<owner>/<name>`).
 * @param request The pull request's number.
 * @param query The list's first-page query.
 * @returns The place.
 */
export function issueComments(
  repo: string,
  request: number,
  query: Readonly<Record<string, string>>,
): CommentPlace {
  const list = repo + apiPath`/issues/${request}/comments`;
  return {
    list,
    query,
    create: list,
    edit: (id) => ["PATCH", repo + apiPath`/issues/comments/${id}`],
    authorKey: "user",
    loginKey: "login",
  };
}

/**
 * Posts a status on a commit: `<repo or project>/statuses/<sha>` on every forge.
 * @param http The forge's HTTP edge.
 * @param owner The repository's (GitLab: project's) API path.
 * @param sha The commit, checked (`checkedSha`).
 * @param body The status in the forge's words (`statusBody`).
 * @throws {ForgeError} When the forge refuses.
 */
export async function postStatus(
  http: ForgeHttp,
  owner: string,
  sha: string,
  body: Record<string, string>,
): Promise<void> {
  await http.request("POST", owner + apiPath`/statuses/${sha}`, {
    body,
  });
}

/** One comment as listed (untrusted). */
interface Listed {
  id: number;
  author?: string;
  body: string;
}

/**
 * Keeps one comment of the token's own user that starts with `marker`: edits
 * the first such comment, or creates it. A comment by anyone else is never
 * edited, whatever it holds.
 * @param http The forge's HTTP edge.
 * @param place Where the comments are.
 * @param own The token's own login.
 * @param marker The hidden first line (`commentMarker`).
 * @param body The whole comment, starting with `marker`.
 * @returns Whether it was created or edited, and its id.
 * @throws {ForgeError} When the forge refuses (a read-only token: 403).
 */
export async function keepComment(
  http: ForgeHttp,
  place: CommentPlace,
  own: string,
  marker: string,
  body: string,
): Promise<CommentKept> {
  const list = await http.list(place.list, place.query);
  const comments = http.decode(
    list.what,
    list.items,
    (items) => items.list().map((item) => listed(item, place)),
  );
  const mine = comments.find((c) =>
    c.author !== undefined && c.author.toLowerCase() === own.toLowerCase() &&
    c.body.startsWith(marker)
  );
  if (mine !== undefined) {
    const [method, path] = place.edit(mine.id);
    await http.request(method, path, { body: { body } });
    return { action: "edited", id: mine.id };
  }
  const answer = await http.request("POST", place.create, { body: { body } });
  const id = http.decode(
    answer.what,
    answer.body,
    (created) => created.object().get("id").integer({ min: 1 }),
  );
  return { action: "created", id };
}

function listed(item: JsonReader, place: CommentPlace): Listed {
  item.object();
  const author = item.get(place.authorKey);
  const body = item.get("body");
  return {
    id: item.get("id").integer({ min: 1 }),
    ...(author.value === null || author.value === undefined ? {} : {
      author: author.object().get(place.loginKey).string(NAME),
    }),
    body: typeof body.value === "string" ? body.value : "",
  };
}

/**
 * Reads the token's own login from `GET /user` (`login`, GitLab `username`).
 * @param http The forge's HTTP edge.
 * @param loginKey The field.
 * @param fallback The login to use when the forge refuses to say (GitHub
 *   Actions' own token answers 403 there and comments as `github-actions[bot]`).
 * @returns The login.
 * @throws {ForgeError} When the forge refuses and there is no fallback.
 */
export async function ownLogin(
  http: ForgeHttp,
  loginKey: "login" | "username",
  fallback?: string,
): Promise<string> {
  const answer = await http.request("GET", "/user", {
    allow: fallback === undefined ? [] : [401, 403],
  });
  if (answer.status === 401 || answer.status === 403) return fallback!;
  return http.decode(
    answer.what,
    answer.body,
    (user) => user.object().get(loginKey).string(NAME),
  );
}

/**
 * The body of a status request: GitHub and Forgejo name it `context` and a
 * failure `failure`; GitLab `name` and `failed`. The description is cut to
 * {@linkcode MAX_STATUS_DESCRIPTION} characters.
 * @param status The status.
 * @param forge Whose words.
 * @returns The JSON body.
 * @example
 * ```ts
 * statusBody({ context: "c", state: "failure", description: "d" }, "gitlab");
 * // { state: "failed", name: "c", description: "d" }
 * ```
 */
export function statusBody(
  status: WaveStatus,
  forge: "github" | "forgejo" | "gitlab",
): Record<string, string> {
  const gitlab = forge === "gitlab";
  const text = status.description;
  return {
    state: gitlab && status.state === "failure" ? "failed" : status.state,
    [gitlab ? "name" : "context"]: status.context,
    description: text.length > MAX_STATUS_DESCRIPTION
      ? `${text.slice(0, MAX_STATUS_DESCRIPTION - 1)}…`
      : text,
    ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
  };
}

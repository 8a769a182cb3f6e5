/**
 * What the fake forges share: the state a test arranges, the route type each
 * forge's table uses, the documented fixtures, and list pages with each forge's
 * pagination headers. Tests only; `fake_forge.ts` serves it.
 * @module
 */

import type { Forge } from "../../src/ci/forges.ts";

/** A pull request (GitLab: merge request) the fake knows. */
export interface FakePull {
  /** Number (GitLab: iid). */
  number: number;
  /** The author's login. */
  author: string;
  /** The head commit. */
  headSha: string;
  /** Whether it is merged. */
  merged: boolean;
  /** The merge commit, when merged. */
  mergeSha?: string;
  /** Other commits it contains (GitHub and GitLab list it for them too). */
  commits?: string[];
}

/** A review in the forge's own words (GitHub `APPROVED`, Forgejo `REQUEST_CHANGES`). */
export interface FakeReview {
  /** The reviewer's login; `null` for a deleted user (GitHub) or a team request (Forgejo). */
  user: string | null;
  /** The forge's own state string. */
  state: string;
  /** The reviewed commit (`null` when gone). */
  commitId?: string | null;
  /** When it was submitted (absent for a pending review). */
  submittedAt?: string;
  /** Forgejo: dismissed. */
  dismissed?: boolean;
}

/** A commit status (GitHub, Forgejo), newest last. */
export interface FakeStatus {
  /** Its id. */
  id: number;
  /** Its context (GitHub's default is `default`). */
  context: string;
  /** `error`, `failure`, `pending`, `success` (Forgejo also `warning`). */
  state: string;
  /** Its description, if any. */
  description?: string;
  /** Its target URL, if any. */
  targetUrl?: string;
}

/** A GitLab pipeline of a merge request. */
export interface FakePipeline {
  /** Its id (its jobs name it in `jobs`). */
  id: number;
  /** The commit it ran at. */
  sha: string;
  /** Its ref (`refs/merge-requests/<iid>/head`). */
  ref: string;
  /** Its status. */
  status: string;
}

/**
 * A workflow run (GitHub; Forgejo in its own words). The fixture's values
 * stand for what a test leaves out (GitHub: a push run of `build.yml` by
 * octocat; Forgejo: a dispatch of `tf.approve.yml` by ann).
 */
export interface FakeRun {
  /** `queued`, `in_progress`, `completed`. */
  status: string;
  /** The attempt. */
  attempt: number;
  /** A completed run's conclusion (default `failure`). */
  conclusion?: string;
  /** `workflow_dispatch`, `push`, … */
  event?: string;
  /** The workflow file (`.github/workflows/tf.approve.yml`). */
  path?: string;
  /**
   * The run's name: GitHub `display_title` (what `run-name` made of the
   * inputs); Forgejo's title, which Forgejo sets to the workflow's `name:`.
   */
  title?: string;
  /** A dispatch's inputs (Forgejo keeps them in the run's `event_payload`; GitHub shows none). */
  inputs?: Record<string, string>;
  /** `actor`'s and `triggering_actor`'s login (same when only `actor` is given). */
  actor?: string;
  triggeringActor?: string;
  /** Whether those logins are bots (GitHub `type: Bot`; Forgejo has no such field). */
  bot?: boolean;
  /** The branch it ran on (GitHub `head_branch`). @default {the fixture's, "master"} */
  branch?: string;
}

/** Everything the fake forges answer from; tests arrange and inspect it. */
export interface FakeState {
  /** GitHub/Forgejo `owner/name`, GitLab project id; other repositories are 404. */
  repository: string;
  /** Pull requests (all forges). */
  pulls: FakePull[];
  /** GitHub and Forgejo reviews, per pull request number. */
  reviews: Map<number, FakeReview[]>;
  /** GitHub `role_name` or Forgejo `permission`, per login; unknown logins are 404. */
  permissions: Map<string, string>;
  /**
   * Workflow runs: GitHub's by id, Forgejo's by run number (what its web URL
   * names); a completed one concluded `conclusion` (default `failure`: its
   * waiting job failed, as before §13.1).
   */
  runs: Map<string, FakeRun>;
  /**
   * Whose the token is (`GET /user`); absent: GitHub answers 403, as it does
   * for a workflow's own token, and Forgejo names the runner's own user
   * (`forgejo-actions`).
   */
  tokenUser?: string;
  /** GitHub runs re-run, in order: `<id>` (failed jobs) or `<id> (every job)`. */
  reruns: string[];
  /** GitLab jobs. */
  jobs: {
    id: number;
    name: string;
    status: string;
    pipeline: number;
    /** Who started (played) it; the fixture's `root` when absent. */
    user?: string;
  }[];
  /** GitLab jobs retried (the old ids), in order. */
  retries: number[];
  /** GitLab approvals per merge request iid. */
  approvals: Map<number, { user: string; approvedAt?: string }[]>;
  /** GitLab diff versions per merge request iid. */
  versions: Map<number, { head: string; createdAt: string }[]>;
  /** GitLab reviewers per merge request iid. */
  reviewers: Map<number, { user: string; state: string }[]>;
  /** GitLab users by username: id, and access level when a project member. */
  members: Map<string, { id: number; accessLevel?: number; state?: string }>;
  /** Forgejo workflow files and the refs they exist on. */
  workflows: Map<string, string[]>;
  /** Forgejo dispatches, in order. */
  dispatches: { workflow: string; ref: string }[];
  /** GitHub and Forgejo commit statuses per commit, oldest first. */
  statuses: Map<string, FakeStatus[]>;
  /** GitLab pipelines per merge request iid, oldest first. */
  mergeRequestPipelines: Map<number, FakePipeline[]>;
  /** GitLab job artifacts: job id → path in the archive → the file's text. */
  artifacts: Map<number, Map<string, string>>;
  /**
   * Comments (GitHub and Forgejo issue comments, GitLab merge request notes)
   * per pull request number (GitLab: iid), oldest first.
   */
  comments: Map<number, FakeComment[]>;
  /** GitLab commit statuses per commit, oldest first. */
  gitlabStatuses: Map<string, FakeStatus[]>;
  /**
   * The token may read but not write (a pull request from a fork): every
   * request that would write answers 403.
   */
  readOnly?: boolean;
}

/** A comment on a pull request (GitLab: a note on a merge request). */
export interface FakeComment {
  /** Its id (unique over the fake). */
  id: number;
  /** Its author's login. */
  author: string;
  /** Its text. */
  body: string;
  /** How many times it was edited. */
  edits: number;
}

/**
 * Makes an empty state for a repository.
 * @param repository `owner/name` or a GitLab project id.
 * @returns The state.
 */
export function emptyState(repository: string): FakeState {
  return {
    repository,
    pulls: [],
    reviews: new Map(),
    permissions: new Map(),
    runs: new Map(),
    reruns: [],
    jobs: [],
    retries: [],
    approvals: new Map(),
    versions: new Map(),
    reviewers: new Map(),
    members: new Map(),
    workflows: new Map(),
    dispatches: [],
    statuses: new Map(),
    mergeRequestPipelines: new Map(),
    artifacts: new Map(),
    comments: new Map(),
    gitlabStatuses: new Map(),
  };
}

/** An answer a route gives. */
export interface FakeAnswer {
  /** HTTP status. */
  status: number;
  /** JSON body; none when absent. */
  body?: unknown;
  /** A raw body instead, as served (an artifact file), `text/plain`. */
  raw?: string;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** A request as a route sees it. */
export interface RouteRequest {
  /** The path's captured segments, decoded. */
  params: string[];
  /** The full URL. */
  url: URL;
  /** The parsed JSON body (POST), or `undefined`. */
  json: unknown;
}

/** A request the forge would refuse as malformed: answered 400 and recorded as a protocol error. */
export class ProtocolViolation extends Error {}

/** One documented endpoint of a fake forge. */
export interface FakeRoute {
  /** `GET` or `POST`. */
  method: "GET" | "POST" | "PATCH" | "PUT";
  /** The path under the API prefix; groups capture one encoded segment each. */
  path: RegExp;
  /** The query parameters the endpoint documents; any other is a protocol error. */
  query: readonly string[];
  /** Whether a JSON body is expected (POST); otherwise a body is a protocol error. */
  body: "json" | "none";
  /** Answers, or throws `ProtocolViolation`. */
  handle(request: RouteRequest): FakeAnswer;
}

/**
 * A documented example response, freshly parsed (callers may change it).
 * @param forge Its forge folder.
 * @param name Its file name without `.json`.
 * @returns The JSON value.
 */
export function fixture(forge: Forge, name: string): Record<string, unknown> {
  const url = new URL(
    `../fixtures/forge/${forge}/${name}.json`,
    import.meta.url,
  );
  return JSON.parse(Deno.readTextFileSync(url));
}

/** How a forge pages its lists. */
export interface PageStyle {
  /** The forge. */
  forge: Forge;
  /** The page size parameter (`per_page`, Forgejo `limit`). */
  sizeParam: string;
  /** Its default. */
  defaultSize: number;
  /** The largest page the fake serves (tests lower it to force several pages). */
  maxSize: number;
  /** GitLab: also send `Link` (it always does); off to test `x-next-page` alone. */
  linkHeader: boolean;
}

/**
 * One page of a list with the forge's pagination headers: GitHub `Link`;
 * GitLab `x-page`, `x-per-page`, `x-next-page`, `x-prev-page`, `x-total`,
 * `x-total-pages` (and `Link`); Forgejo `Link` and `x-total-count`.
 * @param url The request's URL.
 * @param items Every item.
 * @param style The forge's paging.
 * @returns The answer.
 * @throws {ProtocolViolation} On a page or size that is not a positive whole number.
 */
export function pageOf(
  url: URL,
  items: unknown[],
  style: PageStyle,
): FakeAnswer {
  const number = (name: string, fallback: number) => {
    const text = url.searchParams.get(name);
    if (text === null) return fallback;
    if (!/^[1-9]\d*$/.test(text)) {
      throw new ProtocolViolation(`"${name}" is not a positive whole number`);
    }
    return Number(text);
  };
  const size = Math.min(
    number(style.sizeParam, style.defaultSize),
    style.maxSize,
  );
  const page = number("page", 1);
  const pages = Math.max(1, Math.ceil(items.length / size));
  const at = (p: number) => {
    const next = new URL(url);
    next.searchParams.set("page", String(p));
    return next.href;
  };
  const links: string[] = [];
  if (page < pages) {
    links.push(`<${at(page + 1)}>; rel="next"`, `<${at(pages)}>; rel="last"`);
  }
  if (page > 1) {
    links.push(`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`);
  }
  const headers: Record<string, string> = {};
  if (links.length > 0 && style.linkHeader) headers.link = links.join(", ");
  if (style.forge === "gitlab") {
    Object.assign(headers, {
      "x-page": String(page),
      "x-per-page": String(size),
      "x-next-page": page < pages ? String(page + 1) : "",
      "x-prev-page": page > 1 ? String(page - 1) : "",
      "x-total": String(items.length),
      "x-total-pages": String(pages),
    });
  }
  if (style.forge === "forgejo") {
    headers["x-total-count"] = String(items.length);
  }
  return {
    status: 200,
    body: items.slice((page - 1) * size, page * size),
    headers,
  };
}

/** Segment pattern for route paths: one URL-encoded path segment. */
export const SEGMENT = "([^/]+)";

/**
 * A POST body that must be a JSON object.
 * @param json The parsed body.
 * @returns It, as an object.
 * @throws {ProtocolViolation} When it is not one.
 */
export function objectBody(json: unknown): Record<string, unknown> {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ProtocolViolation("the body is not a JSON object");
  }
  return json as Record<string, unknown>;
}

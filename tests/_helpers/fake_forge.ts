/**
 * A faithful fake forge for tests: a real HTTP server on 127.0.0.1 (a free port,
 * `Deno.serve`) per forge, serving the documented endpoints chant-wave uses with
 * the documented JSON shapes. It checks the method, path, query parameters,
 * auth header and body of every request, records every request, and answers
 * anything it does not know with 404/400/401 while recording it as a protocol
 * error a test can assert on. Faults (a status, a rate limit, a hang) can be
 * queued for the next requests. `await using` shuts it down.
 * @module
 */

import type { Forge } from "../../src/ci/forges.ts";
import {
  emptyState,
  type FakeAnswer,
  type FakeRoute,
  type FakeState,
  type PageStyle,
  ProtocolViolation,
} from "./_fake_forge_core.ts";
import { forgejoRoutes, type ForgejoRunShape } from "./_fake_forgejo.ts";
import { githubRoutes } from "./_fake_github.ts";
import { gitlabRoutes } from "./_fake_gitlab.ts";

export type { ForgejoRunShape } from "./_fake_forgejo.ts";
export type {
  FakeComment,
  FakePipeline,
  FakePull,
  FakeReview,
  FakeState,
  FakeStatus,
} from "./_fake_forge_core.ts";

/** One request as received. */
export interface RecordedRequest {
  /** `GET`, `POST`, … */
  method: string;
  /** The path under the API prefix (`/repos/o/r/pulls/1/reviews`). */
  path: string;
  /** The query parameters. */
  query: Record<string, string>;
  /** The headers. */
  headers: Headers;
  /** The raw body. */
  body: string;
}

/** A request the real forge would not have served as chant-wave meant it. */
export interface ProtocolError {
  /** `METHOD path`. */
  request: string;
  /** What was wrong. */
  problem: string;
}

/** An answer forced on the next request, before any routing. */
export type Fault =
  | {
    status: number;
    headers?: Record<string, string>;
    /** A JSON body. */
    body?: unknown;
    /** A raw body instead (not JSON). */
    raw?: string;
  }
  /** Never answer (until the client gives up or the server stops). */
  | { hang: true };

/** A running fake forge. */
export interface FakeForge extends AsyncDisposable {
  /** Which forge it imitates. */
  forge: Forge;
  /** Its API base URL (`http://127.0.0.1:<port>` + `/api/v4` or `/api/v1`). */
  apiUrl: string;
  /** The token it accepts. */
  token: string;
  /** What it answers from; arrange it before the client asks. */
  state: FakeState;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Every protocol error, in order (a well-behaved client causes none). */
  protocolErrors: ProtocolError[];
  /** Queues faults for the next requests, one each. */
  fail(...faults: Fault[]): void;
  /** Waits (polling, up to 20 s) until at least `count` requests arrived. */
  waitForRequests(count: number): Promise<void>;
}

/** Options of {@linkcode fakeForge}. */
export interface FakeForgeOptions {
  /**
   * The token it accepts.
   * @default {"t0ken-S3CRET-value"}
   */
  token?: string;
  /**
   * The repository (GitLab: project id) it serves.
   * @default {"octo/hello", GitLab "42"}
   */
  repository?: string;
  /** The largest page it serves (lower it to force several pages). */
  maxPageSize?: number;
  /**
   * GitLab: send `Link` beside `x-next-page` (GitLab does).
   * @default {true}
   */
  linkHeader?: boolean;
  /**
   * Forgejo: the definition its list of runs answers with, `ActionRun`
   * (current) or the `RepoActionRun` of Forgejo 12.
   * @default {"ActionRun"}
   */
  forgejoRuns?: ForgejoRunShape;
}

/** What each forge answers a read-only token that tries to write (403). */
const READ_ONLY: Record<Forge, string> = {
  github: "Resource not accessible by integration",
  gitlab: "403 Forbidden",
  forgejo: "token does not have at least one of required scope(s)",
};

const PREFIX: Record<Forge, string> = {
  github: "",
  gitlab: "/api/v4",
  forgejo: "/api/v1",
};

/**
 * Starts a fake forge.
 * @param forge Which forge to imitate.
 * @param options Token, repository and paging.
 * @returns The running fake.
 */
export function fakeForge(
  forge: Forge,
  options: FakeForgeOptions = {},
): FakeForge {
  const token = options.token ?? "t0ken-S3CRET-value";
  const state = emptyState(
    options.repository ?? (forge === "gitlab" ? "42" : "octo/hello"),
  );
  const style: PageStyle = {
    forge,
    sizeParam: forge === "forgejo" ? "limit" : "per_page",
    defaultSize: forge === "gitlab" ? 20 : 30,
    maxSize: options.maxPageSize ?? (forge === "forgejo" ? 50 : 100),
    linkHeader: options.linkHeader ?? true,
  };
  const routes = forge === "github"
    ? githubRoutes(state, style)
    : forge === "gitlab"
    ? gitlabRoutes(state, style)
    : forgejoRoutes(state, style, options.forgejoRuns ?? "ActionRun");
  const requests: RecordedRequest[] = [];
  const protocolErrors: ProtocolError[] = [];
  const faults: Fault[] = [];
  const hanging = new Set<() => void>();
  const prefix = PREFIX[forge];

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = await request.text();
    const path = url.pathname.startsWith(prefix)
      ? url.pathname.slice(prefix.length)
      : url.pathname;
    requests.push({
      method: request.method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body,
    });
    const fault = faults.shift();
    if (fault !== undefined) return await faulted(fault, hanging);
    const refuse = (status: number, problem: string) => {
      protocolErrors.push({ request: `${request.method} ${path}`, problem });
      return json({ status, body: { message: problem } });
    };
    if (!url.pathname.startsWith(prefix)) {
      return refuse(404, `outside the API prefix "${prefix}"`);
    }
    const authProblem = checkAuth(forge, request.headers, token);
    if (authProblem) return refuse(401, authProblem);
    const found = match(routes, request.method, path);
    if (found === undefined) return refuse(404, "no such endpoint");
    const [route, params] = found;
    const unknown = [...url.searchParams.keys()].filter((key) =>
      !route.query.includes(key)
    );
    if (unknown.length > 0) {
      return refuse(400, `undocumented query parameters ${unknown}`);
    }
    if (state.readOnly && request.method !== "GET") {
      return json({ status: 403, body: { message: READ_ONLY[forge] } });
    }
    try {
      const parsed = parseBody(route, request.headers, body);
      return json(route.handle({ params, url, json: parsed }));
    } catch (error) {
      if (error instanceof ProtocolViolation) return refuse(400, error.message);
      throw error;
    }
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handler,
  );
  const port = (server.addr as Deno.NetAddr).port;
  return {
    forge,
    apiUrl: `http://127.0.0.1:${port}${prefix}`,
    token,
    state,
    requests,
    protocolErrors,
    fail: (...more) => void faults.push(...more),
    async waitForRequests(count) {
      const deadline = Date.now() + 20_000;
      while (requests.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`only ${requests.length} of ${count} requests came`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async [Symbol.asyncDispose]() {
      for (const release of [...hanging]) release();
      await server.shutdown();
    },
  };
}

function checkAuth(
  forge: Forge,
  headers: Headers,
  token: string,
): string | undefined {
  if (forge === "gitlab") {
    return headers.get("private-token") === token
      ? undefined
      : "missing or wrong PRIVATE-TOKEN header";
  }
  const expected = forge === "github" ? `Bearer ${token}` : `token ${token}`;
  if (headers.get("authorization") !== expected) {
    return "missing or wrong Authorization header";
  }
  if (forge === "github" && !headers.get("user-agent")) {
    return "no User-Agent header (GitHub requires one)";
  }
  return undefined;
}

function match(
  routes: FakeRoute[],
  method: string,
  path: string,
): [FakeRoute, string[]] | undefined {
  for (const route of routes) {
    const found = route.method === method ? route.path.exec(path) : null;
    if (found) return [route, found.slice(1).map(decodeURIComponent)];
  }
  return undefined;
}

function parseBody(route: FakeRoute, headers: Headers, body: string): unknown {
  if (route.body === "none") {
    if (body !== "") {
      throw new ProtocolViolation("a body where none is documented");
    }
    return undefined;
  }
  if (!headers.get("content-type")?.startsWith("application/json")) {
    throw new ProtocolViolation("the body is not sent as application/json");
  }
  try {
    return JSON.parse(body);
  } catch {
    throw new ProtocolViolation("the body is not JSON");
  }
}

function json(answer: FakeAnswer): Response {
  const headers = new Headers(answer.headers);
  if (answer.raw !== undefined) {
    headers.set("content-type", "text/plain; charset=utf-8");
    return new Response(answer.raw, { status: answer.status, headers });
  }
  if (answer.body === undefined) {
    return new Response(null, { status: answer.status, headers });
  }
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers,
  });
}

async function faulted(
  fault: Fault,
  hanging: Set<() => void>,
): Promise<Response> {
  if ("hang" in fault) {
    await new Promise<void>((resolve) => {
      const release = () => {
        hanging.delete(release);
        resolve();
      };
      hanging.add(release);
    });
    return new Response(null, { status: 503 });
  }
  if (fault.raw !== undefined) {
    return new Response(fault.raw, {
      status: fault.status,
      headers: fault.headers,
    });
  }
  return json({
    status: fault.status,
    body: fault.body,
    headers: fault.headers,
  });
}

/**
 * Keeps a plans file as the artifact of a successful `record-plans` job in a
 * new pipeline of GitLab merge request `iid` (what GitLab holds once the merge
 * request's pipeline ran `run --record-plans`).
 * @param fake A fake GitLab.
 * @param iid The merge request.
 * @param sha The commit the pipeline ran at.
 * @param file The file's path in the archive (`.chant/recorded-plans/<name>.json`).
 * @param text The file's text.
 * @returns The job's id.
 */
export function keepPlansArtifact(
  fake: FakeForge,
  iid: number,
  sha: string,
  file: string,
  text: string,
): number {
  const { state } = fake;
  const pipelines = state.mergeRequestPipelines.get(iid) ?? [];
  const pipeline = 900 + [...state.mergeRequestPipelines.values()].flat()
    .length;
  pipelines.push({
    id: pipeline,
    sha,
    ref: `refs/merge-requests/${iid}/head`,
    status: "success",
  });
  state.mergeRequestPipelines.set(iid, pipelines);
  const job = Math.max(1000, ...state.jobs.map((other) => other.id)) + 1;
  state.jobs.push({
    id: job,
    name: "record-plans",
    status: "success",
    pipeline,
  });
  state.artifacts.set(job, new Map([[file, text]]));
  return job;
}

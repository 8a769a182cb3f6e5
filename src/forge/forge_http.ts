/**
 * The HTTP edge every forge client shares (SPEC.md §13): Web `fetch` only, one
 * auth header, a time limit per attempt, retries with jittered exponential
 * backoff, rate limits waited out within a bound, answers read with a size
 * limit and parsed as untrusted JSON, and lists followed page by page without
 * leaving the API. Errors are one line and never carry the token or URL
 * credentials; headers are never echoed. It knows no forge's endpoints.
 * The next page is the `Link` header's `rel="next"` (GitHub, Forgejo, GitLab
 * keyset pages) or GitLab's `x-next-page`, never one that leaves the API.
 * @module
 */

import { type Clock, realClock } from "../clock.ts";
import { VERSION } from "../version.ts";
import { ForgeError, maskSecrets } from "./forge_error.ts";
import { ShapeError } from "../input/shape_error.ts";
import type { JsonReader } from "../input/json_reader.ts";
import { answerReader } from "./_answer_reader.ts";
import { parseApiUrl } from "./forge_env.ts";
import {
  type ForgeAnswer,
  type RequestOptions,
  sendWithRetries,
} from "./_send_request.ts";

export type { ForgeAnswer, RequestOptions };

/** What a forge client is given to reach the network and the time; tests inject fakes. */
export interface HttpDeps {
  /**
   * The Web `fetch` to use.
   * @default {globalThis.fetch}
   */
  fetch?: typeof fetch;
  /**
   * Tells the time (rate-limit resets) and schedules the per-attempt timeout.
   * @default {realClock}
   */
  clock?: Clock;
  /**
   * Waits between attempts.
   * @default {a wait on `clock`}
   */
  sleep?: (ms: number) => Promise<void>;
  /**
   * A number in [0, 1) for the backoff jitter.
   * @default {Math.random}
   */
  random?: () => number;
  /**
   * How long one attempt may take (connecting, sending, reading the answer).
   * @default {30000}
   */
  timeoutMs?: number;
  /**
   * Attempts per request, the first included.
   * @default {4}
   */
  maxAttempts?: number;
  /**
   * The backoff before the second attempt; it doubles for each further one.
   * @default {1000}
   */
  backoffMs?: number;
  /**
   * The longest backoff.
   * @default {30000}
   */
  maxBackoffMs?: number;
  /**
   * A rate limit lifting later than this is an error rather than a wait.
   * @default {120000}
   */
  maxRateLimitWaitMs?: number;
  /**
   * The largest answer body read.
   * @default {8388608}
   */
  maxBytes?: number;
  /**
   * The most pages one list may have.
   * @default {50}
   */
  maxPages?: number;
}

/** How to reach one forge's API. */
export interface HttpTarget {
  /** The API's base URL (`https://api.github.com`, `https://gitlab.example/api/v4`). */
  apiUrl: string;
  /** The auth header's name and value (`["authorization", "Bearer …"]`). */
  auth: readonly [name: string, value: string];
  /** The token itself, masked wherever it might appear. */
  token: string;
  /** Headers every request carries (`accept`, API version). */
  headers?: Readonly<Record<string, string>>;
}

/** The shared HTTP edge of one forge. */
export interface ForgeHttp {
  /**
   * Sends one request (retried as `decideRetry` says).
   * @param method `GET` or `POST`.
   * @param path The path under the API URL, from `apiPath` (`forge_env.ts`).
   * @param options Query, body and statuses to return rather than throw.
   * @returns The answer.
   * @throws {ForgeError} On any failure.
   */
  request(
    method: "GET" | "POST",
    path: string,
    options?: RequestOptions,
  ): Promise<ForgeAnswer>;
  /**
   * Reads every page of a list (each page's body must be an array).
   * @param path The path under the API URL.
   * @param query Query parameters of the first page (the page size).
   * @returns The items of all pages, in order, and the first page's `what`.
   * @throws {ForgeError} On any failure, a non-array page or too many pages.
   */
  list(
    path: string,
    query: Readonly<Record<string, string>>,
  ): Promise<ForgeList>;
  /**
   * Runs a decoder on an untrusted body (read with `answerReader`), turning
   * its shape errors into a one-line `ForgeError` that names the request.
   * @param what The request, as in {@linkcode ForgeAnswer.what}.
   * @param body The parsed body (or a list's items).
   * @param decode Checks and converts the body.
   * @returns What `decode` returns.
   * @throws {ForgeError} With kind `bad-answer` when the shape is wrong.
   */
  decode<T>(what: string, body: unknown, decode: (body: JsonReader) => T): T;
}

/** Every item of a paginated list. */
export interface ForgeList {
  /** The items of all pages, in order; untrusted. */
  items: unknown[];
  /** `GET url` of the first page, credentials masked. */
  what: string;
}

/**
 * Makes the HTTP edge of one forge. Every request carries the auth header,
 * `user-agent: chant-wave/<version>` and `accept`; POST bodies are JSON. Each
 * attempt is aborted after `timeoutMs` (connecting, sending and reading). Redirects
 * are not followed (a token never travels to another address). Bodies larger
 * than `maxBytes` are refused. Retries follow `decideRetry` (`_send_request.ts`).
 * @param target The API URL and credentials.
 * @param deps Fetch, clock, sleep, randomness and limits.
 * @returns The edge.
 * @throws {InputError} When the API URL is unusable.
 */
export function forgeHttp(target: HttpTarget, deps: HttpDeps = {}): ForgeHttp {
  const base = parseApiUrl(target.apiUrl);
  const clock = deps.clock ?? realClock;
  const settings = {
    fetch: deps.fetch ??
      ((input: URL | Request | string, init?: RequestInit) =>
        fetch(input, init)),
    clock,
    sleep: deps.sleep ??
      ((ms: number) =>
        new Promise<void>((resolve) => clock.setTimeout(resolve, ms))),
    random: deps.random ?? Math.random,
    timeoutMs: deps.timeoutMs ?? 30_000,
    maxBytes: deps.maxBytes ?? 8 * 1024 * 1024,
    policy: {
      maxAttempts: Math.max(1, deps.maxAttempts ?? 4),
      backoffMs: deps.backoffMs ?? 1000,
      maxBackoffMs: deps.maxBackoffMs ?? 30_000,
      maxRateLimitWaitMs: deps.maxRateLimitWaitMs ?? 120_000,
    },
  };
  const headers: Record<string, string> = {
    "user-agent": `chant-wave/${VERSION}`,
    accept: "application/json",
    ...target.headers,
    [target.auth[0]]: target.auth[1],
  };
  const mask = (text: string) => maskSecrets(text, [target.token]);
  const send = (method: "GET" | "POST", url: URL, options: RequestOptions) =>
    sendWithRetries({ method, url, options, headers, mask, ...settings });
  const urlOf = (path: string, query?: Readonly<Record<string, string>>) => {
    const url = new URL(base.href.replace(/\/$/, "") + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      url.searchParams.set(key, value);
    }
    return url;
  };
  return {
    request: (method, path, options = {}) =>
      send(method, urlOf(path, options.query), options),
    list: (path, query) =>
      listPages(
        urlOf(path, query),
        base,
        deps.maxPages ?? 50,
        (url) => send("GET", url, {}),
        mask,
      ),
    decode(what, body, decode) {
      try {
        return decode(answerReader(body));
      } catch (error) {
        if (!(error instanceof ShapeError)) throw error;
        throw new ForgeError(
          "bad-answer",
          `${what}: unexpected answer: ${mask(error.message)}`,
        );
      }
    },
  };
}

/**
 * Reads every page of a list from `first` on, each page's body an array,
 * following `nextPageUrl` (which never leaves `base`), at most `maxPages`.
 */
async function listPages(
  first: URL,
  base: URL,
  maxPages: number,
  get: (url: URL) => Promise<ForgeAnswer>,
  mask: (text: string) => string,
): Promise<ForgeList> {
  const items: unknown[] = [];
  const what = `GET ${mask(first.href)}`;
  let url: URL | undefined = first;
  for (let page = 1; url !== undefined; page++) {
    if (page > maxPages) {
      throw new ForgeError(
        "bad-answer",
        `${what}: more than ${maxPages} pages`,
      );
    }
    const answer: ForgeAnswer = await get(url);
    if (!Array.isArray(answer.body)) {
      throw new ForgeError(
        "bad-answer",
        `${answer.what}: unexpected answer: the page is not an array`,
        answer.status,
      );
    }
    items.push(...answer.body);
    try {
      url = nextPageUrl(url, answer.headers, base);
    } catch (error) {
      throw new ForgeError(
        "bad-answer",
        `${answer.what}: ${mask((error as Error).message)}`,
        answer.status,
      );
    }
  }
  return { items, what };
}

/**
 * The `rel="next"` target of an RFC 8288 `Link` header.
 * @param link The header's value, or `null`.
 * @returns The target as written, or `undefined` when there is no next page.
 * @example
 * ```ts
 * nextLink('<https://h/r?page=2>; rel="next", <https://h/r?page=5>; rel="last"');
 * // "https://h/r?page=2"
 * ```
 */
export function nextLink(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const match of link.matchAll(/<([^>]*)>((?:\s*;\s*[^,;<]*)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(match[2]);
    if (rel && rel[1].toLowerCase().split(/\s+/).includes("next")) {
      return match[1];
    }
  }
  return undefined;
}

/**
 * The URL of the next page, resolved against the current one and checked to stay
 * on the API: same origin as `base`, and a path under `base`'s path.
 * @param current The URL of the page just read.
 * @param headers Its answer's headers.
 * @param base The API's base URL (`https://host/api/v4`).
 * @returns The next page's URL; `undefined` on the last page.
 * @throws {Error} When the next page would leave the API (the message says where to).
 */
export function nextPageUrl(
  current: URL,
  headers: Headers,
  base: URL,
): URL | undefined {
  const linked = nextLink(headers.get("link"));
  if (linked !== undefined) {
    const next = new URL(linked, current);
    const basePath = base.pathname.replace(/\/$/, "");
    if (
      next.origin !== base.origin ||
      !(next.pathname === basePath || next.pathname.startsWith(basePath + "/"))
    ) {
      throw new Error(
        `the next page link leaves the API ("${next.origin}${next.pathname}")`,
      );
    }
    return next;
  }
  const page = headers.get("x-next-page")?.trim();
  if (page === undefined || page === "") return undefined;
  if (!/^[1-9]\d{0,8}$/.test(page)) {
    throw new Error(
      `"x-next-page" is not a page number ("${page.slice(0, 20)}")`,
    );
  }
  const next = new URL(current);
  next.searchParams.set("page", page);
  return next;
}

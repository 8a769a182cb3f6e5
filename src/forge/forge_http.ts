/**
 * The HTTP edge every forge client shares (SPEC.md §13): Web `fetch` only, one
 * auth header, a time limit per attempt, retries with jittered exponential
 * backoff (`decideRetry`, over the one HTTP loop `retryingFetch`), rate limits
 * waited out within a bound, answers read with a size limit and parsed as
 * untrusted JSON, and lists followed page by page without leaving the API.
 * Errors are one line and never carry the token or URL credentials; headers
 * are never echoed. It knows no forge's endpoints. The next page is the `Link`
 * header's `rel="next"` (GitHub, Forgejo, GitLab keyset pages) or GitLab's
 * `x-next-page`, never one that leaves the API.
 * @module
 */

import { type Clock, realClock } from "../clock.ts";
import { VERSION } from "../version.ts";
import { ForgeError, maskSecrets } from "./forge_error.ts";
import { ShapeError } from "../input/shape_error.ts";
import type { JsonReader } from "../input/json_reader.ts";
import { answerReader } from "./_answer_reader.ts";
import { parseApiUrl } from "./forge_env.ts";
import { retryingFetch } from "../http/retrying_fetch.ts";

/** One answer, already read and parsed. */
export interface ForgeAnswer {
  /** The HTTP status. */
  status: number;
  /** The answer's headers. */
  headers: Headers;
  /** The parsed JSON body (`undefined` when empty); untrusted. */
  body: unknown;
  /** `METHOD url` for messages, credentials masked. */
  what: string;
}

/** Options of one request. */
export interface RequestOptions {
  /** Query parameters. */
  query?: Readonly<Record<string, string>>;
  /** A JSON body (POST). */
  body?: unknown;
  /** Non-2xx statuses returned as answers instead of thrown (404, 422). */
  allow?: readonly number[];
  /** A lower limit on the answer's size than the edge's own. */
  maxBytes?: number;
}

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

/** The methods the forge clients use. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT";

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
   * @param method `GET`, `POST`, or `PATCH`/`PUT` (editing a comment).
   * @param path The path under the API URL, from `apiPath` (`forge_env.ts`).
   * @param options Query, body and statuses to return rather than throw.
   * @returns The answer.
   * @throws {ForgeError} On any failure.
   */
  request(
    method: HttpMethod,
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
 * than `maxBytes` are refused. Retries follow {@linkcode decideRetry}.
 * @param target The API URL and credentials.
 * @param deps Fetch, clock, sleep, randomness and limits.
 * @returns The edge.
 * @throws {InputError} When the API URL is unusable.
 */
export function forgeHttp(target: HttpTarget, deps: HttpDeps = {}): ForgeHttp {
  const base = parseApiUrl(target.apiUrl);
  const clock = deps.clock ?? realClock;
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const random = deps.random ?? Math.random;
  const policy: RetryPolicy = {
    maxAttempts: Math.max(1, deps.maxAttempts ?? 4),
    backoffMs: deps.backoffMs ?? 1000,
    maxBackoffMs: deps.maxBackoffMs ?? 30_000,
    maxRateLimitWaitMs: deps.maxRateLimitWaitMs ?? 120_000,
  };
  const headers: Record<string, string> = {
    "user-agent": `chant-wave/${VERSION}`,
    accept: "application/json",
    ...target.headers,
    [target.auth[0]]: target.auth[1],
  };
  const mask = (text: string) => maskSecrets(text, [target.token]);
  /**
   * Sends one request, retrying as `decideRetry` says. A 2xx answer, or one
   * whose status is in `options.allow`, is returned parsed; a redirect, an
   * oversized body or a body that is not JSON ends it at once.
   */
  const send = (
    method: HttpMethod,
    url: URL,
    options: RequestOptions,
  ): Promise<ForgeAnswer> => {
    const what = `${method} ${mask(url.href)}`;
    const hasBody = options.body !== undefined;
    return retryingFetch<ForgeAnswer>({
      method,
      url,
      headers: hasBody
        ? { ...headers, "content-type": "application/json" }
        : headers,
      ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
      fetch: deps.fetch ?? ((input, init) => fetch(input, init)),
      clock,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      timeoutMs,
      maxBytes: Math.min(
        deps.maxBytes ?? 8 * 1024 * 1024,
        options.maxBytes ?? Infinity,
      ),
    }, (result, attempt) => {
      const answer = result.ok
        ? { status: result.status, headers: result.headers }
        : undefined;
      if (result.ok) {
        const ok = result.status >= 200 && result.status < 300;
        if (ok || options.allow?.includes(result.status)) {
          return {
            done: {
              status: result.status,
              headers: result.headers,
              body: parsed(result.text, what, result.status),
              what,
            },
          };
        }
        if (result.status >= 300 && result.status < 400) {
          throw new ForgeError(
            "redirect",
            `${what}: HTTP ${result.status}: the forge answered with a redirect; ` +
              "set its API URL to the final address",
            result.status,
          );
        }
      } else if (result.failure === "too-large") {
        throw new ForgeError("too-large", `${what}: ${result.detail}`);
      }
      const decision = decideRetry({
        method,
        answer,
        attempt,
        now: clock.now(),
        random: random(),
      }, policy);
      if (decision.action === "retry") return { retryAfterMs: decision.waitMs };
      const after = attempt > 1 ? ` (after ${attempt} attempts)` : "";
      if (decision.action === "rate-limited") {
        throw new ForgeError(
          "rate-limited",
          `${what}: HTTP ${answer!.status}: rate limited until ${
            new Date(decision.untilMs).toISOString()
          }${after}`,
          answer!.status,
        );
      }
      if (!result.ok) {
        const detail = result.failure === "timeout"
          ? `no answer within ${seconds(timeoutMs)}`
          : mask(result.detail);
        throw new ForgeError(result.failure, `${what}: ${detail}${after}`);
      }
      const message = forgeMessage(result.text);
      throw new ForgeError(
        "http",
        `${what}: HTTP ${result.status}${
          message ? `: ${mask(message)}` : ""
        }${after}`,
        result.status,
      );
    });
  };
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

/**
 * Parses an answer's text as JSON; an empty body is `undefined`.
 * @throws {SyntaxError} When the text is not JSON.
 */
function parseJsonBody(text: string): unknown {
  return text.trim() === "" ? undefined : JSON.parse(text);
}

function parsed(text: string, what: string, status: number): unknown {
  try {
    return parseJsonBody(text);
  } catch {
    throw new ForgeError(
      "bad-answer",
      `${what}: unexpected answer: the body is not JSON`,
      status,
    );
  }
}

/** The forge's own explanation in an error body (`message` or `error`), cut short. */
function forgeMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = parseJsonBody(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const value = record.message ?? record.error;
  if (value === undefined) return undefined;
  const message = typeof value === "string" ? value : JSON.stringify(value);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** How hard to retry. */
export interface RetryPolicy {
  /** Attempts in all (the first included). */
  maxAttempts: number;
  /** The backoff before the second attempt; it doubles for each further one. */
  backoffMs: number;
  /** No backoff is longer than this. */
  maxBackoffMs: number;
  /** A rate limit that lifts later than this is reported, not waited out. */
  maxRateLimitWaitMs: number;
}

/** One failed attempt, as the loop saw it. */
export interface FailedAttempt {
  /** `GET` or `POST`. */
  method: string;
  /** The answer's status and headers; absent when none came back. */
  answer?: { status: number; headers: Headers };
  /** The attempt that failed, counting from 1. */
  attempt: number;
  /** The clock's time, in milliseconds since the epoch. */
  now: number;
  /** A number in [0, 1) for the jitter. */
  random: number;
}

/** What to do after a failed attempt. */
export type RetryDecision =
  /** Try again after `waitMs`. */
  | { action: "retry"; waitMs: number }
  /** Stop and report the failure as it is. */
  | { action: "give-up" }
  /** Stop: rate limited until `untilMs` (epoch ms), longer than the policy waits. */
  | { action: "rate-limited"; untilMs: number };

/**
 * Decides whether to try again. A rate limit (429, or 403 with
 * `x-ratelimit-remaining: 0`/`ratelimit-remaining: 0` or `retry-after`) is waited
 * out until `retry-after` or the reset time (plus one second for clock skew) when
 * that is within `maxRateLimitWaitMs`, for any method, since the forge did nothing.
 * A GET is retried after a network error, a timeout or any 5xx; a POST (not
 * idempotent: a second job retry would start a second job) only after 502 or
 * 503, which mean no working backend took it. Backoff is exponential with
 * jitter: `backoffMs * 2^(attempt-1)`, capped, times a factor in [0.5, 1).
 * Never more than `maxAttempts` in all.
 * @param failed The attempt that failed.
 * @param policy The limits.
 * @returns The decision.
 * @example
 * ```ts
 * const policy = { maxAttempts: 4, backoffMs: 1000, maxBackoffMs: 30000, maxRateLimitWaitMs: 60000 };
 * decideRetry({ method: "GET", answer: { status: 502, headers: new Headers() }, attempt: 1, now: 0, random: 0 }, policy);
 * // { action: "retry", waitMs: 500 }
 * ```
 */
export function decideRetry(
  failed: FailedAttempt,
  policy: RetryPolicy,
): RetryDecision {
  const limitedUntil = failed.answer
    ? rateLimitedUntil(failed.answer, failed.now)
    : undefined;
  if (limitedUntil !== undefined && limitedUntil > failed.now) {
    if (limitedUntil - failed.now > policy.maxRateLimitWaitMs) {
      return { action: "rate-limited", untilMs: limitedUntil };
    }
    if (failed.attempt >= policy.maxAttempts) return { action: "give-up" };
    return { action: "retry", waitMs: limitedUntil - failed.now };
  }
  const limited = limitedUntil !== undefined ||
    (failed.answer !== undefined && failed.answer.status === 429);
  if (failed.attempt >= policy.maxAttempts) return { action: "give-up" };
  if (!limited && !transient(failed.method, failed.answer?.status)) {
    return { action: "give-up" };
  }
  const exponential = Math.min(
    policy.maxBackoffMs,
    policy.backoffMs * 2 ** (failed.attempt - 1),
  );
  return {
    action: "retry",
    waitMs: Math.round(exponential * (0.5 + failed.random / 2)),
  };
}

/** Whether a failure without a rate limit is worth another attempt. */
function transient(method: string, status: number | undefined): boolean {
  if (method === "GET") return status === undefined || status >= 500;
  return status === 502 || status === 503;
}

/**
 * When a rate-limited answer says the limit lifts: from `retry-after` (seconds
 * or an HTTP date), else from `x-ratelimit-reset`/`ratelimit-reset` (epoch
 * seconds) plus one second. `undefined` when the answer is not a rate limit or
 * names no time.
 */
function rateLimitedUntil(
  answer: { status: number; headers: Headers },
  now: number,
): number | undefined {
  const headers = answer.headers;
  const exhausted = headers.get("x-ratelimit-remaining") === "0" ||
    headers.get("ratelimit-remaining") === "0";
  const retryAfter = headers.get("retry-after");
  const limited = answer.status === 429 ||
    (answer.status === 403 && (exhausted || retryAfter !== null));
  if (!limited) return undefined;
  if (retryAfter !== null) {
    const after = retryAfterMs(retryAfter, now);
    if (after !== undefined) return now + after;
  }
  const reset = headers.get("x-ratelimit-reset") ??
    headers.get("ratelimit-reset");
  if (reset !== null && /^\d{1,12}$/.test(reset.trim())) {
    return Number(reset.trim()) * 1000 + 1000;
  }
  return answer.status === 429 ? undefined : now;
}

/** A `retry-after` value in milliseconds from now, or `undefined` when unreadable. */
function retryAfterMs(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * One forge request with its retries (SPEC.md §13): each attempt sent with Web
 * `fetch` under a time limit, its body read with a size limit, the outcome
 * judged by `decideRetry`, and failures turned into one-line `ForgeError`s
 * with the token masked. The shared edge `forgeHttp` builds on it.
 * @module
 */

import type { Clock } from "../clock.ts";
import { ForgeError } from "./forge_error.ts";
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

/** Everything one request needs (the edge's settings, resolved). */
export interface SendContext {
  /** `GET` or `POST`. */
  method: "GET" | "POST";
  /** The full URL. */
  url: URL;
  /** Body and statuses to return rather than throw. */
  options: RequestOptions;
  /** Every header, the auth header included (never echoed). */
  headers: Record<string, string>;
  /** Masks the token and URL credentials in a message. */
  mask: (text: string) => string;
  /** The Web `fetch`. */
  fetch: typeof fetch;
  /** Tells the time and schedules the per-attempt timeout. */
  clock: Clock;
  /** Waits between attempts. */
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random: () => number;
  /** How long one attempt may take. */
  timeoutMs: number;
  /** The largest body read. */
  maxBytes: number;
  /** How hard to retry. */
  policy: RetryPolicy;
}

/**
 * Sends one request, retrying as `decideRetry` says, sleeping between attempts
 * (`retryingFetch`). A 2xx answer, or one whose status is in `options.allow`,
 * is returned parsed; a redirect, an oversized body or a body that is not JSON
 * ends it at once.
 * @param context The request and the edge's settings.
 * @returns The answer.
 * @throws {ForgeError} With the request, the last status or failure, and the attempts made.
 */
export async function sendWithRetries(
  context: SendContext,
): Promise<ForgeAnswer> {
  const what = `${context.method} ${context.mask(context.url.href)}`;
  const hasBody = context.options.body !== undefined;
  return await retryingFetch<ForgeAnswer>({
    method: context.method,
    url: context.url,
    headers: hasBody
      ? { ...context.headers, "content-type": "application/json" }
      : context.headers,
    ...(hasBody ? { body: JSON.stringify(context.options.body) } : {}),
    fetch: context.fetch,
    clock: context.clock,
    sleep: context.sleep,
    timeoutMs: context.timeoutMs,
    maxBytes: Math.min(context.maxBytes, context.options.maxBytes ?? Infinity),
  }, (result, attempt) => {
    const answer = result.ok
      ? { status: result.status, headers: result.headers }
      : undefined;
    if (result.ok) {
      const ok = result.status >= 200 && result.status < 300;
      if (ok || context.options.allow?.includes(result.status)) {
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
      method: context.method,
      answer,
      attempt,
      now: context.clock.now(),
      random: context.random(),
    }, context.policy);
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
        ? `no answer within ${seconds(context.timeoutMs)}`
        : context.mask(result.detail);
      throw new ForgeError(result.failure, `${what}: ${detail}${after}`);
    }
    const message = forgeMessage(result.text);
    throw new ForgeError(
      "http",
      `${what}: HTTP ${result.status}${
        message ? `: ${context.mask(message)}` : ""
      }${after}`,
      result.status,
    );
  });
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

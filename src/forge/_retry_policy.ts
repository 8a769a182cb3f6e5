/**
 * When a failed forge request is tried again, and after how long (SPEC.md §13).
 * Pure: values in (the method, the answer's status and headers, the attempt, the
 * time and a random number), a decision out. The HTTP loop acts on it.
 * @module
 */

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

/**
 * The webhook's HTTP edge (SPEC.md §8): POSTs one JSON event through the one
 * HTTP loop (`retryingFetch`), signed when a key is given, with a bounded time
 * per attempt and up to 3 attempts on network errors and 5xx. It never throws and never lets the URL or
 * the key into what it reports.
 * @module
 */

import type { Clock } from "../clock.ts";
import { retryingFetch } from "../http/retrying_fetch.ts";
import { SIGNATURE_HEADER, signEvent, TIMESTAMP_HEADER } from "./sign_event.ts";

/** How one event is delivered. */
export interface DeliverOptions {
  /** The webhook URL (a secret: never reported). */
  url: string;
  /** The signing key (a secret: never reported); unsigned without it. */
  key?: string;
  /** The exact JSON body. */
  body: string;
  /** Schedules the per-attempt timeout and the backoff; tells the time. */
  clock: Clock;
  /**
   * The Web `fetch` to use.
   * @default {globalThis.fetch}
   */
  fetch?: typeof fetch;
  /**
   * Attempts in all.
   * @default {3}
   */
  attempts?: number;
  /**
   * How long one attempt may take (connecting, sending, reading the answer).
   * @default {10000}
   */
  timeoutMs?: number;
  /**
   * The wait before the second attempt; it doubles for each further one.
   * @default {1000}
   */
  backoffMs?: number;
}

/** What happened to one event. */
export interface Delivery {
  /** Whether a 2xx answer came back. */
  delivered: boolean;
  /** Attempts made. */
  attempts: number;
  /** The last HTTP status, when an answer came back. */
  status?: number;
  /** Why it was not delivered (the last failure), free of the URL and the key. */
  problem?: string;
}

/**
 * Masks secrets in a message: every occurrence of the given values, and any URL.
 * @param text A message (e.g. a network error's).
 * @param secrets Values that must not appear.
 * @returns The text with them replaced by `<redacted>` and URLs by `<url>`.
 * @example
 * ```ts
 * scrub("error sending request for url (http://h/x?t=1)", []);
 * // "error sending request for url (<url>)"
 * ```
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== "") out = out.split(secret).join("<redacted>");
  }
  return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)'"]+/gi, "<url>");
}

/**
 * Delivers one event: POST `body` as `application/json` (with
 * `X-Chant-Wave-Timestamp` and, given a key, `X-Chant-Wave-Signature`). A network
 * error, a timeout or a 5xx answer is retried after `backoffMs`, then twice that,
 * up to `attempts` in all; any other non-2xx answer is final. Every attempt is
 * aborted after `timeoutMs`. Never throws; the URL and the key appear nowhere in
 * the result.
 * @param options The URL, key, body, clock and limits.
 * @returns Whether it was delivered, after how many attempts, and why not.
 */
export async function deliverEvent(options: DeliverOptions): Promise<Delivery> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const backoffMs = options.backoffMs ?? 1000;
  const secrets = [options.url, options.key ?? ""];
  try {
    const timestamp = String(Math.floor(options.clock.now() / 1000));
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "chant-wave",
      [TIMESTAMP_HEADER]: timestamp,
    };
    if (options.key) {
      headers[SIGNATURE_HEADER] = await signEvent(
        options.key,
        timestamp,
        options.body,
      );
    }
    return await retryingFetch<Delivery>({
      method: "POST",
      url: options.url,
      headers,
      body: options.body,
      fetch: options.fetch ?? fetch,
      clock: options.clock,
      timeoutMs,
      maxBytes: Infinity,
    }, (result, n) => {
      if (result.ok && result.status >= 200 && result.status < 300) {
        return {
          done: { delivered: true, attempts: n, status: result.status },
        };
      }
      const retry = !result.ok || result.status >= 500;
      if (retry && n < attempts) {
        return { retryAfterMs: backoffMs * 2 ** (n - 1) };
      }
      const problem = result.ok
        ? `HTTP ${result.status}`
        : result.failure === "timeout"
        ? `no answer within ${timeoutMs} ms`
        : result.detail;
      return {
        done: {
          delivered: false,
          attempts: n,
          ...(result.ok ? { status: result.status } : {}),
          problem: scrub(problem, secrets),
        },
      };
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { delivered: false, attempts: 0, problem: scrub(message, secrets) };
  }
}

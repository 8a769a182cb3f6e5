/**
 * The one HTTP loop of chant-wave (SPEC.md §8, §13): each attempt sent with Web
 * `fetch` under a time limit and without following redirects, its body read
 * with a size limit (the stream cancelled as soon as the limit is passed), and
 * after each attempt the caller says whether it is done or tries again after
 * how long. The forge clients and the webhook both send through it; what to
 * retry, and what a failure reads like, is theirs.
 * @module
 */

import type { Clock } from "../clock.ts";

/** One request, as every attempt sends it. */
export interface HttpRequest {
  /** `GET`, `POST`. */
  method: string;
  /** The full URL (a secret of its caller: never put in a message here). */
  url: string | URL;
  /** Every header (never echoed). */
  headers: Record<string, string>;
  /** The body, if any. */
  body?: string;
  /** The Web `fetch`. */
  fetch: typeof fetch;
  /** Tells the time, schedules the per-attempt timeout and the waits. */
  clock: Clock;
  /** How long one attempt may take (connecting, sending, reading the answer). */
  timeoutMs: number;
  /** The most bytes of an answer's body read (`Infinity`: all of it). */
  maxBytes: number;
  /**
   * Waits between attempts.
   * @default {a timeout on `clock`}
   */
  sleep?: (ms: number) => Promise<void>;
}

/** What one attempt came to. */
export type HttpAttempt =
  | { ok: true; status: number; headers: Headers; text: string }
  | {
    ok: false;
    /** No answer in time, none at all, or one larger than `maxBytes`. */
    failure: "timeout" | "network" | "too-large";
    /** What went wrong, without the URL: `network error: <why>`, `the answer is larger than N bytes`. */
    detail: string;
  };

/** What the caller makes of an attempt: the end, or another attempt after a wait. */
export type AttemptVerdict<T> = { done: T } | { retryAfterMs: number };

/**
 * Sends `request` until `verdict` says it is done: attempt `n` (from 1), then
 * a wait on the clock, then attempt `n + 1`. `verdict` may throw to end it.
 * @param request The request.
 * @param verdict Judges each attempt.
 * @returns What `verdict` ended with.
 * @throws {Error} Whatever `verdict` throws.
 * @example
 * ```ts
 * const status = await retryingFetch(request, (attempt, n) =>
 *   attempt.ok || n === 3 ? { done: attempt } : { retryAfterMs: 1000 });
 * ```
 */
export async function retryingFetch<T>(
  request: HttpRequest,
  verdict: (attempt: HttpAttempt, n: number) => AttemptVerdict<T>,
): Promise<T> {
  for (let n = 1;; n++) {
    const judged = verdict(await attemptOnce(request), n);
    if ("done" in judged) return judged.done;
    await (request.sleep?.(judged.retryAfterMs) ??
      new Promise((resolve) =>
        request.clock.setTimeout(resolve, judged.retryAfterMs)
      ));
  }
}

/** One attempt: send, read the body within the time and size limits. */
async function attemptOnce(request: HttpRequest): Promise<HttpAttempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = request.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  try {
    const response = await request.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: "manual",
      signal: controller.signal,
    });
    const text = await readLimitedText(response, request.maxBytes);
    return {
      ok: true,
      status: response.status,
      headers: response.headers,
      text,
    };
  } catch (error) {
    if (error instanceof TooLargeError) {
      return { ok: false, failure: "too-large", detail: error.message };
    }
    if (timedOut) return { ok: false, failure: "timeout", detail: "timeout" };
    return {
      ok: false,
      failure: "network",
      detail: `network error: ${describeError(error)}`,
    };
  } finally {
    request.clock.clearTimeout(timer);
  }
}

/** The message of a thrown value, with its cause's (`fetch` puts the why there). */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: unknown })?.cause;
  return cause instanceof Error ? `${message}: ${cause.message}` : message;
}

/** The body was larger than the limit. */
class TooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = "TooLargeError";
  }
}

/**
 * Reads the body as UTF-8 text, at most `maxBytes` of it; the stream is
 * cancelled as soon as the limit is passed.
 */
async function readLimitedText(
  response: Response,
  maxBytes: number,
): Promise<string> {
  if (response.body === null) return "";
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel();
    throw new TooLargeError(maxBytes);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new TooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

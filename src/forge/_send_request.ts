/**
 * One forge request with its retries (SPEC.md §13): each attempt sent with Web
 * `fetch` under a time limit, its body read with a size limit, the outcome
 * judged by `decideRetry`, and failures turned into one-line `ForgeError`s
 * with the token masked. The shared edge `forgeHttp` builds on it.
 * @module
 */

import type { Clock } from "../clock.ts";
import { ForgeError } from "./forge_error.ts";
import { parseJsonBody, readLimitedText, TooLargeError } from "./_read_body.ts";
import { decideRetry, type RetryPolicy } from "./_retry_policy.ts";

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

type Attempt =
  | { ok: true; status: number; headers: Headers; text: string }
  | { ok: false; failure: "network" | "timeout" | "too-large"; detail: string };

/**
 * Sends one request, retrying as `decideRetry` says, sleeping between attempts.
 * A 2xx answer, or one whose status is in `options.allow`, is returned parsed;
 * a redirect, an oversized body or a body that is not JSON ends it at once.
 * @param context The request and the edge's settings.
 * @returns The answer.
 * @throws {ForgeError} With the request, the last status or failure, and the attempts made.
 */
export async function sendWithRetries(
  context: SendContext,
): Promise<ForgeAnswer> {
  const what = `${context.method} ${context.mask(context.url.href)}`;
  for (let attempt = 1;; attempt++) {
    const result = await attemptOnce(context);
    const answer = result.ok
      ? { status: result.status, headers: result.headers }
      : undefined;
    if (result.ok) {
      const ok = result.status >= 200 && result.status < 300;
      if (ok || context.options.allow?.includes(result.status)) {
        return {
          status: result.status,
          headers: result.headers,
          body: parsed(result.text, what, result.status),
          what,
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
    if (decision.action === "retry") {
      await context.sleep(decision.waitMs);
      continue;
    }
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
      throw new ForgeError(result.failure, `${what}: ${result.detail}${after}`);
    }
    const message = forgeMessage(result.text);
    throw new ForgeError(
      "http",
      `${what}: HTTP ${result.status}${
        message ? `: ${context.mask(message)}` : ""
      }${after}`,
      result.status,
    );
  }
}

/** One attempt: send, read the body within the time and size limits. */
async function attemptOnce(context: SendContext): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = context.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, context.timeoutMs);
  try {
    const hasBody = context.options.body !== undefined;
    const response = await context.fetch(context.url, {
      method: context.method,
      headers: hasBody
        ? { ...context.headers, "content-type": "application/json" }
        : context.headers,
      body: hasBody ? JSON.stringify(context.options.body) : undefined,
      redirect: "manual",
      signal: controller.signal,
    });
    const text = await readLimitedText(
      response,
      Math.min(context.maxBytes, context.options.maxBytes ?? Infinity),
    );
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
    if (timedOut) {
      return {
        ok: false,
        failure: "timeout",
        detail: `no answer within ${seconds(context.timeoutMs)}`,
      };
    }
    return {
      ok: false,
      failure: "network",
      detail: `network error: ${context.mask(describe(error))}`,
    };
  } finally {
    context.clock.clearTimeout(timer);
  }
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

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: unknown })?.cause;
  return cause instanceof Error ? `${message}: ${cause.message}` : message;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

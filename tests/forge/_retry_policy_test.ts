// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { decideRetry } from "../../src/forge/_send_request.ts";

const POLICY = {
  maxAttempts: 4,
  backoffMs: 1000,
  maxBackoffMs: 4000,
  maxRateLimitWaitMs: 60_000,
};
const NOW = 1_700_000_000_000;

function answer(status: number, headers: Record<string, string> = {}) {
  return { status, headers: new Headers(headers) };
}

Deno.test("decideRetry() retries transient failures with capped, jittered backoff", async (t) => {
  const cases: [string, Parameters<typeof decideRetry>[0], unknown][] = [
    ["GET network error", { method: "GET", attempt: 1, now: NOW, random: 0 }, {
      action: "retry",
      waitMs: 500,
    }],
    ["GET 500, jitter high", {
      method: "GET",
      answer: answer(500),
      attempt: 2,
      now: NOW,
      random: 0.999,
    }, { action: "retry", waitMs: 1999 }],
    ["GET 504 capped", {
      method: "GET",
      answer: answer(504),
      attempt: 3,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 2000 }],
    ["POST 502", {
      method: "POST",
      answer: answer(502),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 500 }],
    ["POST 500", {
      method: "POST",
      answer: answer(500),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
    [
      "POST network error",
      { method: "POST", attempt: 1, now: NOW, random: 0 },
      { action: "give-up" },
    ],
    ["GET 404", {
      method: "GET",
      answer: answer(404),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
    ["GET 502 on the last attempt", {
      method: "GET",
      answer: answer(502),
      attempt: 4,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
  ];
  for (const [name, failed, expected] of cases) {
    await t.step(
      name,
      () => expect(decideRetry(failed, POLICY)).toEqual(expected),
    );
  }
});

Deno.test("decideRetry() waits out rate limits within the bound", async (t) => {
  const reset = (seconds: number) => String(NOW / 1000 + seconds);
  const cases: [string, Parameters<typeof decideRetry>[0], unknown][] = [
    ["429 retry-after seconds", {
      method: "POST",
      answer: answer(429, { "retry-after": "12" }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 12_000 }],
    ["429 retry-after date", {
      method: "GET",
      answer: answer(429, {
        "retry-after": new Date(NOW + 5000).toUTCString(),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 5000 }],
    ["429 without headers: backoff", {
      method: "GET",
      answer: answer(429),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 500 }],
    ["403 exhausted, GitHub reset", {
      method: "GET",
      answer: answer(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": reset(20),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 21_000 }],
    ["429 GitLab ratelimit-reset", {
      method: "GET",
      answer: answer(429, {
        "ratelimit-remaining": "0",
        "ratelimit-reset": reset(9),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 10_000 }],
    ["403 secondary limit retry-after", {
      method: "POST",
      answer: answer(403, { "retry-after": "30" }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 30_000 }],
    ["too far away", {
      method: "GET",
      answer: answer(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": reset(600),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "rate-limited", untilMs: NOW + 601_000 }],
    ["403 without rate-limit headers", {
      method: "GET",
      answer: answer(403),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
    ["rate limited on the last attempt", {
      method: "GET",
      answer: answer(429, { "retry-after": "1" }),
      attempt: 4,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
  ];
  for (const [name, failed, expected] of cases) {
    await t.step(
      name,
      () => expect(decideRetry(failed, POLICY)).toEqual(expected),
    );
  }
});

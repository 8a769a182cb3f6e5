// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHmac } from "node:crypto";
import { realClock } from "../../src/clock.ts";
import { deliverEvent, scrub } from "../../src/notify/deliver_event.ts";
import { deadUrl, hookServer } from "./_hook_server.ts";

const KEY = "k3y-very-secret";
const BODY =
  '{"event":"applied","summary":"wave 1 (dev) of tf, applied 1 run"}';

Deno.test("deliverEvent() posts a signed event the receiver can verify", async () => {
  await using server = hookServer();
  const delivery = await deliverEvent({
    url: server.url,
    key: KEY,
    body: BODY,
    clock: realClock,
  });
  expect(delivery).toEqual({ delivered: true, attempts: 1, status: 204 });
  const [got] = server.received;
  expect(got.body).toBe(BODY);
  expect(got.headers.get("content-type")).toBe("application/json");
  const timestamp = got.headers.get("x-chant-wave-timestamp")!;
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  const expected = "sha256=" +
    createHmac("sha256", KEY).update(`${timestamp}.${got.body}`).digest("hex");
  expect(got.headers.get("x-chant-wave-signature")).toBe(expected);
});

Deno.test("deliverEvent() sends no signature without a key", async () => {
  await using server = hookServer();
  await deliverEvent({ url: server.url, body: BODY, clock: realClock });
  expect(server.received[0].headers.has("x-chant-wave-signature")).toBe(false);
  expect(server.received[0].headers.has("x-chant-wave-timestamp")).toBe(true);
});

Deno.test("deliverEvent() retries after 5xx and stops after 3 attempts", async (t) => {
  await t.step("500, 502, then 200: delivered on the third", async () => {
    await using server = hookServer([{ status: 500 }, { status: 502 }, {
      status: 200,
    }]);
    const delivery = await deliverEvent({
      url: server.url,
      key: KEY,
      body: BODY,
      clock: realClock,
      backoffMs: 10,
    });
    expect(delivery).toEqual({ delivered: true, attempts: 3, status: 200 });
    expect(server.received.map((r) => r.body)).toEqual([BODY, BODY, BODY]);
  });
  await t.step("always 503: three attempts, then given up", async () => {
    await using server = hookServer([{ status: 503 }]);
    const delivery = await deliverEvent({
      url: server.url,
      body: BODY,
      clock: realClock,
      backoffMs: 10,
    });
    expect(delivery).toEqual({
      delivered: false,
      attempts: 3,
      status: 503,
      problem: "HTTP 503",
    });
  });
  await t.step("4xx is final", async () => {
    await using server = hookServer([{ status: 401 }]);
    const delivery = await deliverEvent({
      url: server.url,
      body: BODY,
      clock: realClock,
      backoffMs: 10,
    });
    expect(delivery).toEqual({
      delivered: false,
      attempts: 1,
      status: 401,
      problem: "HTTP 401",
    });
  });
});

Deno.test("deliverEvent() gives up on a dead port without revealing the URL", async () => {
  const url = deadUrl();
  const delivery = await deliverEvent({
    url,
    key: KEY,
    body: BODY,
    clock: realClock,
    backoffMs: 10,
  });
  expect(delivery.delivered).toBe(false);
  expect(delivery.attempts).toBe(3);
  expect(delivery.problem).toMatch(/^network error: /);
  expect(delivery.problem).not.toContain("dead-s3cr3t");
  expect(delivery.problem).not.toContain("127.0.0.1");
  expect(delivery.problem).not.toContain(KEY);
});

Deno.test("deliverEvent() bounds the time a slow receiver takes", async () => {
  // A receiver that never answers (until the test ends).
  await using server = hookServer([{ status: 200, delayMs: 600_000 }]);
  const started = performance.now();
  const delivery = await deliverEvent({
    url: server.url,
    body: BODY,
    clock: realClock,
    timeoutMs: 200,
    backoffMs: 10,
  });
  const elapsed = performance.now() - started;
  expect(delivery).toEqual({
    delivered: false,
    attempts: 3,
    problem: "no answer within 200 ms",
  });
  expect(server.received.length).toBe(3);
  // Only an upper bound of many seconds: the 10 minutes the receiver would take.
  expect(elapsed).toBeLessThan(60_000);
});

Deno.test("scrub() masks secrets and URLs", () => {
  expect(scrub("error sending request for url (http://h:1/x?t=1): refused", []))
    .toBe("error sending request for url (<url>): refused");
  expect(scrub("key k3y in text", ["k3y"])).toBe("key <redacted> in text");
});

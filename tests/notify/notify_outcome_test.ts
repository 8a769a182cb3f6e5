// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHmac } from "node:crypto";
import { realClock } from "../../src/clock.ts";
import { PLAN_MOVED, WAITING } from "../../src/exit_codes.ts";
import { notifyOutcome } from "../../src/notify/notify_outcome.ts";
import { decision, result, SPEC } from "./_spec.ts";
import { deadUrl, hookServer } from "./_hook_server.ts";

const KEY = "k3y-never-logged";

Deno.test("notifyOutcome() sends one signed event per outcome and logs each", async () => {
  await using server = hookServer();
  const logs: string[] = [];
  const reports = await notifyOutcome({
    spec: SPEC,
    result: result({
      exitCode: PLAN_MOVED,
      job: { kind: "group", share: 1, group: "prod" },
      decision: decision(2, "approved"),
      applied: ["prod-us"],
      moved: ["prod-eu"],
    }),
    env: {
      CHANT_HOOK_URL: server.url,
      CHANT_HOOK_KEY: KEY,
      GITLAB_CI: "true",
      CI_PIPELINE_URL: "https://gitlab.example/p/-/pipelines/7",
    },
    clock: realClock,
    log: (line) => logs.push(line),
  });
  expect(reports.map((r) => r.delivery.delivered)).toEqual([true, true]);
  expect(logs).toEqual([
    'notify: delivered "applied" (HTTP 204, 1 attempt)',
    'notify: delivered "refused" (HTTP 204, 1 attempt)',
  ]);
  const bodies = server.received.map((r) => JSON.parse(r.body));
  expect(bodies.map((b) => b.event)).toEqual(["applied", "refused"]);
  expect(bodies[1].summary).toBe(
    "wave 2 (apply) of tf-apply, share 1 of job group prod, refused 1 run whose plan moved since the wave was decided",
  );
  expect(bodies[0].runUrl).toBe("https://gitlab.example/p/-/pipelines/7");
  for (const got of server.received) {
    const timestamp = got.headers.get("x-chant-wave-timestamp");
    const mac = createHmac("sha256", KEY).update(`${timestamp}.${got.body}`)
      .digest("hex");
    expect(got.headers.get("x-chant-wave-signature")).toBe(`sha256=${mac}`);
  }
});

Deno.test("notifyOutcome() never fails the job and never logs the URL or key", async (t) => {
  const waiting = result({
    exitCode: WAITING,
    job: { kind: "decide" },
    decision: decision(2, "waiting"),
  });
  await t.step("a dead receiver", async () => {
    const url = deadUrl();
    const logs: string[] = [];
    const reports = await notifyOutcome({
      spec: SPEC,
      result: waiting,
      env: { CHANT_HOOK_URL: url, CHANT_HOOK_KEY: KEY },
      clock: realClock,
      log: (line) => logs.push(line),
      backoffMs: 10,
    });
    expect(reports[0].delivery.delivered).toBe(false);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      /^notify: could not deliver "waiting" after 3 attempts: network error: /,
    );
    const all = logs.join("\n");
    expect(all).not.toContain(url);
    expect(all).not.toContain("dead-s3cr3t");
    expect(all).not.toContain("127.0.0.1");
    expect(all).not.toContain(KEY);
  });
  await t.step("a receiver answering 500", async () => {
    await using server = hookServer([{ status: 500 }]);
    const logs: string[] = [];
    await notifyOutcome({
      spec: SPEC,
      result: waiting,
      env: { CHANT_HOOK_URL: server.url, CHANT_HOOK_KEY: KEY },
      clock: realClock,
      log: (line) => logs.push(line),
      backoffMs: 10,
    });
    expect(logs).toEqual([
      'notify: could not deliver "waiting" after 3 attempts: HTTP 500',
    ]);
    expect(server.received).toHaveLength(3);
  });
  const cases = [
    {
      name: "the URL variable is not set",
      env: { CHANT_HOOK_KEY: KEY },
      want: ["notify: $CHANT_HOOK_URL is not set; sent no event"],
    },
    {
      name: "the URL is not http(s)",
      env: { CHANT_HOOK_URL: "ftp://x/s3cr3t", CHANT_HOOK_KEY: KEY },
      want: ["notify: $CHANT_HOOK_URL is not an http(s) URL; sent no event"],
    },
    {
      name: "the key variable is not set",
      env: { CHANT_HOOK_URL: "http://127.0.0.1:9/s3cr3t" },
      want: [
        "notify: $CHANT_HOOK_KEY is not set; sent no event (with notify.key, events are only sent signed)",
      ],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const logs: string[] = [];
      const reports = await notifyOutcome({
        spec: SPEC,
        result: waiting,
        env: c.env,
        clock: realClock,
        log: (line) => logs.push(line),
      });
      expect(reports).toEqual([]);
      expect(logs).toEqual(c.want);
    });
  }
  await t.step("no notify: nothing", async () => {
    const logs: string[] = [];
    const env = { CHANT_HOOK_URL: "http://127.0.0.1:9/", CHANT_HOOK_KEY: KEY };
    const log = (line: string) => logs.push(line);
    expect(
      await notifyOutcome({
        spec: { ...SPEC, notify: undefined },
        result: waiting,
        env,
        clock: realClock,
        log,
      }),
    ).toEqual([]);
    expect(logs).toEqual([]);
  });
});

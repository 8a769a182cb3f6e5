// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type LedgerRecord, newRecord } from "../../src/gate/records.ts";
import { decideTimedResume } from "../../src/resume/timed_resume.ts";

const HEAD = "a".repeat(40);
const T0 = Date.UTC(2026, 11, 6, 12);
const LOCATOR = {
  forge: "github" as const,
  apiUrl: "https://api.github.com",
  repository: "o/r",
  runId: "7",
  attempt: 1,
};

function waiting(id: string, until: number, locator = true): LedgerRecord {
  return newRecord("waiting", {
    name: "tf",
    gate: "tf-wave-2",
    wave: 2,
    head: HEAD,
    why: "soak",
    until: new Date(until).toISOString(),
    ...(locator ? { locator: LOCATOR } : {}),
  }, { id, now: T0 });
}

Deno.test("decideTimedResume() restarts a job whose time has come, only then", async (t) => {
  await t.step("no wait: nothing", () => {
    expect(decideTimedResume([], T0)).toBeUndefined();
  });
  await t.step("before the time: not-yet, saying when", () => {
    const step = decideTimedResume([waiting("w1", T0 + 3_600_000)], T0);
    expect(step?.status).toBe("not-yet");
    expect(step?.status === "not-yet" && step.reason).toBe(
      "wave 2 waits for its soak: it may go at 13:00 UTC",
    );
  });
  await t.step("at the time: restart the job it names", () => {
    const step = decideTimedResume([waiting("w1", T0)], T0);
    expect(step).toMatchObject({ status: "restart", locator: LOCATOR });
  });
  await t.step("no job named: no-job", () => {
    expect(decideTimedResume([waiting("w1", T0, false)], T0)?.status).toBe(
      "no-job",
    );
  });
  await t.step("a job of the gate went on since: nothing", () => {
    const outcome = newRecord("wave-outcome", {
      name: "tf",
      gate: "tf-wave-2",
      wave: 2,
      head: HEAD,
      digest: "sha256:" + "0".repeat(64),
      decisionId: "d1",
      job: { kind: "wave" },
      outcome: "applied",
    }, { id: "o1", now: T0 + 1 });
    expect(decideTimedResume([waiting("w1", T0), outcome], T0 + 2))
      .toBeUndefined();
  });
});

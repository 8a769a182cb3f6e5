// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type LedgerRecord, newRecord } from "../../src/gate/records.ts";
import {
  arrivalTimes,
  completedAt,
  soakLeft,
} from "../../src/order/soak_wait.ts";

const HEAD = "a".repeat(40);
const T0 = Date.UTC(2026, 11, 6, 12);
const MIN = 60_000;

function outcome(
  id: string,
  minute: number,
  fields: {
    job?: { kind: "wave" | "share"; share?: number };
    outcome?: "applied" | "nothing-to-do" | "failed";
    head?: string;
  } = {},
): LedgerRecord {
  return newRecord("wave-outcome", {
    name: "tf",
    gate: "tf-wave-1",
    wave: 1,
    head: fields.head ?? HEAD,
    digest: "sha256:" + "0".repeat(64),
    decisionId: `d-${id}`,
    job: fields.job ?? { kind: "wave" },
    outcome: fields.outcome ?? "applied",
  }, { id, now: T0 + minute * MIN });
}

const WAVE = { k: 1, shares: 1 };

Deno.test("arrivalTimes(): no record counts as arriving before one ahead of it in the ledger's order", () => {
  const first = outcome("a", 30);
  const early = outcome("b", -600);
  const times = arrivalTimes([first, early]);
  expect(times.get(first)).toBe(T0 + 30 * MIN);
  expect(times.get(early)).toBe(T0 + 30 * MIN);
  const kept = arrivalTimes([first], new Map([[first, T0 + 90 * MIN]]));
  expect(kept.get(first)).toBe(T0 + 90 * MIN);
});

Deno.test("completedAt() is the newest completing outcome of each job, the latest of the jobs", async (t) => {
  await t.step("not complete: no time", () => {
    expect(completedAt([], WAVE, HEAD)).toBeUndefined();
    expect(completedAt([outcome("a", 0, { outcome: "failed" })], WAVE, HEAD))
      .toBeUndefined();
    expect(completedAt([outcome("a", 0, { head: "b".repeat(40) })], WAVE, HEAD))
      .toBeUndefined();
  });
  await t.step("a whole-wave job: its newest outcome", () => {
    expect(completedAt(
      [
        outcome("a", 0),
        outcome("b", 10, {
          outcome: "nothing-to-do",
        }),
      ],
      WAVE,
      HEAD,
    )).toBe(T0 + 10 * MIN);
  });
  await t.step(
    "a copy dated before the genuine outcome moves nothing earlier",
    () => {
      const genuine = outcome("a", 0);
      const forged = outcome("f", -180);
      expect(completedAt([genuine, forged], WAVE, HEAD)).toBe(T0);
    },
  );
  await t.step("shares: the last share to complete", () => {
    const shares = { k: 1, shares: 2 };
    const records = [
      outcome("a", 0, { job: { kind: "share", share: 1 } }),
      outcome("b", 5, { job: { kind: "share", share: 2 }, outcome: "failed" }),
      outcome("c", 40, { job: { kind: "share", share: 2 } }),
    ];
    expect(completedAt(records, shares, HEAD)).toBe(T0 + 40 * MIN);
    expect(completedAt(records.slice(0, 2), shares, HEAD)).toBeUndefined();
  });
  await t.step("the store's arrival time raises the stated one", () => {
    const genuine = outcome("a", 0);
    expect(
      completedAt([genuine], WAVE, HEAD, new Map([[genuine, T0 + 7 * MIN]])),
    ).toBe(T0 + 7 * MIN);
  });
});

Deno.test("soakLeft() measures from the completion to the reader's clock", () => {
  expect(soakLeft(T0, 120 * MIN, T0 + 40 * MIN)).toEqual({
    ago: 40 * MIN,
    mayGoAt: T0 + 120 * MIN,
    passed: false,
  });
  expect(soakLeft(T0, 120 * MIN, T0 + 120 * MIN).passed).toBe(true);
  expect(soakLeft(T0 + 10 * MIN, 120 * MIN, T0).ago).toBe(0);
});

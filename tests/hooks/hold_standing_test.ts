// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  appliedSince,
  holdStanding,
  newestPendingFact,
} from "../../src/hooks/hold_standing.ts";
import { newRecord, type WaveOutcome } from "../../src/gate/records.ts";
import { at, D, expired, GATE, NAME, pending } from "../ledger/_records.ts";

function waveOutcome(id: string, minute: number, outcome: WaveOutcome) {
  return newRecord("wave-outcome", {
    name: NAME,
    gate: GATE,
    wave: 2,
    head: "a".repeat(40),
    digest: D,
    decisionId: "d1",
    job: { kind: "wave" },
    outcome,
  }, { id, now: at(minute) });
}

Deno.test("newestPendingFact() finds the newest pending fact since the last revoke", async (t) => {
  await t.step("none in an empty gate", () => {
    expect(newestPendingFact([])).toBeUndefined();
  });
  await t.step("the newest, even when its time to stand ran out", () => {
    const old = pending("p1", 0, D, 1);
    const newer = pending("p2", 5, D, 1);
    expect(newestPendingFact([old, newer])?.id).toBe("p2");
  });
  await t.step("none after a revoke", () => {
    expect(newestPendingFact([pending("p1", 0), expired("e1", 1)]))
      .toBeUndefined();
  });
});

Deno.test("appliedSince() looks for an applied wave outcome after the pending fact", async (t) => {
  const fact = pending("p1", 5);
  await t.step("an applied outcome after it counts", () => {
    expect(appliedSince([fact, waveOutcome("o1", 6, "applied")], fact))
      .toBe(true);
  });
  await t.step("one before it does not", () => {
    expect(appliedSince([waveOutcome("o1", 1, "applied"), fact], fact))
      .toBe(false);
  });
  await t.step("failed and nothing-to-do do not", () => {
    const records = [
      fact,
      waveOutcome("o1", 6, "failed"),
      waveOutcome("o2", 7, "nothing-to-do"),
    ];
    expect(appliedSince(records, fact)).toBe(false);
  });
  await t.step("without a pending fact: any since the last revoke", () => {
    expect(appliedSince([waveOutcome("o1", 1, "applied")], undefined))
      .toBe(true);
    expect(
      appliedSince(
        [waveOutcome("o1", 1, "applied"), expired("e", 2)],
        undefined,
      ),
    ).toBe(false);
  });
});

Deno.test("holdStanding() decides a hold", async (t) => {
  const gate = { name: "infra", gate: "infra-wave-2" };
  const fact = pending("p1", 0);
  const cases: {
    name: string;
    applied: boolean;
    facts: Parameters<typeof holdStanding>[1];
    want: ReturnType<typeof holdStanding>;
  }[] = [
    {
      name: "no pending fact: held",
      applied: false,
      facts: { applied: false },
      want: { outcome: "held", why: "no plans wait at infra-wave-2 yet" },
    },
    {
      name: "pending, not approved: held",
      applied: false,
      facts: { pending: fact, applied: false },
      want: { outcome: "held", why: `the plans ${D} wait for an approval` },
    },
    {
      name: "pending and approved: ok",
      applied: false,
      facts: { pending: fact, approvedBy: "ann", applied: false },
      want: { outcome: "ok", why: `approved by ann for ${D}` },
    },
    {
      name: "applied hold, approved but not applied: held",
      applied: true,
      facts: { pending: fact, approvedBy: "ann", applied: false },
      want: {
        outcome: "held",
        why: "approved by ann, but that wave has not applied since",
      },
    },
    {
      name: "applied hold, not approved: held for the approval",
      applied: true,
      facts: { pending: fact, applied: false },
      want: { outcome: "held", why: `the plans ${D} wait for an approval` },
    },
    {
      name: "applied hold, applied: ok",
      applied: true,
      facts: { pending: fact, approvedBy: "ann", applied: true },
      want: { outcome: "ok", why: "that wave applied at infra-wave-2" },
    },
    {
      name: "applied hold on a gate that never waited, applied: ok",
      applied: true,
      facts: { applied: true },
      want: { outcome: "ok", why: "that wave applied at infra-wave-2" },
    },
    {
      name: "applied hold on a gate that never waited nor applied: held",
      applied: true,
      facts: { applied: false },
      want: {
        outcome: "held",
        why: "that wave has not applied at infra-wave-2",
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(holdStanding({ ...gate, applied: c.applied }, c.facts))
        .toEqual(c.want);
    });
  }
});

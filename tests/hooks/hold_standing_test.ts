// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  holdStanding,
  newestPendingFact,
} from "../../src/hooks/hold_standing.ts";
import { completeSince } from "../../src/order/wave_completion.ts";
import {
  newRecord,
  type OutcomeJob,
  type WaveOutcome,
} from "../../src/gate/records.ts";
import { at, D, expired, GATE, NAME, pending } from "../ledger/_records.ts";

function waveOutcome(
  id: string,
  minute: number,
  outcome: WaveOutcome,
  job: OutcomeJob = { kind: "wave" },
  head = "a".repeat(40),
) {
  return newRecord("wave-outcome", {
    name: NAME,
    gate: GATE,
    wave: 2,
    head,
    digest: D,
    decisionId: "d1",
    job,
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

Deno.test("completeSince() looks for a complete wave after the pending fact", async (t) => {
  const fact = pending("p1", 5);
  const applied = (records: Parameters<typeof completeSince>[0]) =>
    completeSince(records, fact, GATE).applied;
  await t.step("an applied outcome after it counts", () => {
    expect(applied([fact, waveOutcome("o1", 6, "applied")])).toBe(true);
  });
  await t.step("one before it does not", () => {
    expect(applied([waveOutcome("o1", 1, "applied"), fact])).toBe(false);
  });
  await t.step("a newest failed does not; a newest nothing-to-do does", () => {
    const failed = waveOutcome("o1", 6, "failed");
    expect(applied([fact, failed])).toBe(false);
    expect(applied([fact, failed, waveOutcome("o2", 7, "nothing-to-do")]))
      .toBe(true);
  });
  await t.step("without a pending fact: any since the last revoke", () => {
    const outcome = waveOutcome("o1", 1, "applied");
    expect(completeSince([outcome], undefined, GATE).applied).toBe(true);
    expect(completeSince([outcome, expired("e", 2)], undefined, GATE).applied)
      .toBe(false);
  });
});

Deno.test("completeSince() needs every job of a wave with shares or groups, at one head", async (t) => {
  const fact = { ...pending("p1", 5), head: "a".repeat(40) };
  const grouped = {
    k: 2,
    shares: 1,
    jobs: [
      { name: "eu", runs: [], shares: 1 },
      { name: "us", runs: [], shares: 2 },
    ],
  };
  const eu = waveOutcome("o1", 6, "applied", { kind: "group", group: "eu" });
  const us = (share: number, minute: number, head?: string) =>
    waveOutcome(
      `u${share}${minute}`,
      minute,
      "applied",
      { kind: "group", group: "us", share },
      head,
    );
  await t.step("one group of three jobs: held, and says which", () => {
    expect(completeSince([fact, eu], fact, GATE, grouped)).toEqual({
      applied: false,
      missing: 'group "us" share 1, group "us" share 2',
    });
  });
  await t.step("every job at the pending fact's head: complete", () => {
    expect(completeSince([fact, eu, us(1, 7), us(2, 8)], fact, GATE, grouped))
      .toEqual({ applied: true });
  });
  await t.step("a job at another head does not count", () => {
    const other = us(2, 8, "b".repeat(40));
    expect(
      completeSince([fact, eu, us(1, 7), other], fact, GATE, grouped).applied,
    ).toBe(false);
  });
  await t.step("a shape unknown: only a whole-wave job completes it", () => {
    const shares = [1, 2].map((share) =>
      waveOutcome(`s${share}`, 6 + share, "applied", { kind: "share", share })
    );
    expect(completeSince([fact, ...shares], fact, GATE).applied).toBe(false);
    expect(
      completeSince([fact, waveOutcome("w", 9, "applied")], fact, GATE).applied,
    ).toBe(true);
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

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  canaryFailedAt,
  canaryStanding,
  stillFailed,
  waveCanary,
} from "../../src/gate/canary_runs.ts";
import {
  type LedgerRecord,
  newRecord,
  type WaveOutcome,
} from "../../src/gate/records.ts";
import { at, claim, digest, outcome } from "../ledger/_records.ts";

const FROM = 'at 1a2b3c4d5e6f, wave 3 "prod"';
const FIVE = ["eu-3", "eu-1", "eu-2", "us-1", "us-2"];
/** The decided plans, as a decision lists them: by target. */
const PLANS = [...FIVE].sort().map((target) => ({ target }));

Deno.test("waveCanary() takes the first N runs in spec order whose plan is not empty", async (t) => {
  const cases = [
    {
      name: "canary 1 of 5: the first in spec order, not by target",
      canary: 1,
      plans: PLANS,
      want: { targets: ["eu-3"], others: 4 },
    },
    {
      name: "an empty plan is no canary: the next run is",
      canary: 2,
      plans: PLANS.map((p) => p.target === "eu-1" ? { ...p, empty: true } : p),
      want: { targets: ["eu-3", "eu-2"], others: 2 },
    },
    {
      name: "a count over the runs: every run to apply, none other",
      canary: 9,
      plans: PLANS.slice(0, 2),
      want: { targets: ["eu-1", "eu-2"], others: 0 },
    },
    {
      name:
        "a run the spec does not list (discovered) comes after, in plan order",
      canary: 2,
      plans: [{ target: "a-new" }, { target: "us-2" }],
      want: { targets: ["us-2", "a-new"], others: 0 },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(waveCanary({ canary: c.canary, canaryFrom: FROM }, FIVE, c.plans))
        .toStrictEqual({
          ...c.want,
          rule: `canary ${c.canary}, read ${FROM}`,
        });
    });
  }
  await t.step("no count at base: no canary", () => {
    expect(waveCanary({}, FIVE, PLANS)).toBeUndefined();
  });
  await t.step("every plan empty: no canary", () => {
    const empty = PLANS.map((p) => ({ ...p, empty: true }));
    expect(waveCanary({ canary: 1, canaryFrom: FROM }, FIVE, empty))
      .toBeUndefined();
  });
});

const EU = { target: "eu-3", planDigest: digest("1") };
const US = { target: "us-1", planDigest: digest("2") };

const HEAD = "a".repeat(40);

function waveOutcome(
  minute: number,
  decisionId: string,
  kind: "decide" | "wave" | "share",
  result: WaveOutcome,
  head = HEAD,
): LedgerRecord {
  return newRecord("wave-outcome", {
    name: "tf",
    gate: "tf-wave-3",
    wave: 3,
    head,
    digest: digest("d"),
    decisionId,
    job: kind === "share" ? { kind, share: 1 } : { kind },
    outcome: result,
  }, { id: `w${minute}`, now: at(minute) });
}

Deno.test("waveCanary() takes the canary in the base's order: a change cannot choose its own", () => {
  const timing = { canary: 1, canaryFrom: FROM, order: ["a", "b", "c"] };
  const plans = ["a", "b", "c", "zz"].map((target) => ({ target }));
  // The change put a new run first and reversed the rest.
  expect(waveCanary(timing, ["zz", "c", "b", "a"], plans)?.targets).toEqual([
    "a",
  ]);
  // The base's first run has nothing to apply: the next in base order.
  expect(
    waveCanary(timing, ["zz", "c", "b", "a"], [
      { target: "a", empty: true },
      ...plans.slice(1),
    ])?.targets,
  ).toEqual(["b"]);
  // Runs the base does not hold come after, in the change's order.
  expect(
    waveCanary({ ...timing, canary: 4 }, ["zz", "c", "b", "a"], plans)
      ?.targets,
  ).toEqual(["a", "b", "c", "zz"]);
});

Deno.test("waveCanary(): a base canary run the change moved into another wave is outside, and waits", () => {
  const timing = { canary: 1, canaryFrom: FROM, order: ["p1", "p2", "p3"] };
  const plans = [{ target: "p2" }, { target: "p3" }];
  expect(waveCanary(timing, ["p2", "p3"], plans, new Set(["p1"]))).toEqual({
    targets: [],
    others: 2,
    rule: `canary 1, read ${FROM}`,
    outside: ["p1"],
  });
  // A base run the change dropped altogether is no canary.
  expect(waveCanary(timing, ["p2", "p3"], plans, new Set())?.targets)
    .toEqual(["p2"]);
});

Deno.test("canaryStanding() says whether the canary runs applied under a decision", async (t) => {
  const ungated = {
    wave: 3,
    decisionId: "dec-1",
    digest: digest("d"),
    head: HEAD,
  };
  const gated = { ...ungated, approvalId: "a1" };
  const cases: {
    name: string;
    records: LedgerRecord[];
    query: Parameters<typeof canaryStanding>[1];
    want: ReturnType<typeof canaryStanding>;
  }[] = [
    {
      name: "under an approval, never claimed: waiting for each",
      records: [],
      query: { ...gated, canaries: [EU, US] },
      want: { kind: "waiting", waiting: ["eu-3", "us-1"], claimed: [] },
    },
    {
      name: "claimed with no outcome: waiting, and said to be claimed",
      records: [claim("c1", 1, "a1", "dec-1", [EU, US])],
      query: { ...gated, canaries: [EU, US] },
      want: {
        kind: "waiting",
        waiting: ["eu-3", "us-1"],
        claimed: [
          "eu-3",
          "us-1",
        ],
      },
    },
    {
      name: "every one applied: applied",
      records: [
        claim("c1", 1, "a1", "dec-1", [EU, US]),
        outcome("o1", 2, "a1", "dec-1", [
          { ...EU, outcome: "ok" },
          { ...US, outcome: "ok" },
        ]),
      ],
      query: { ...gated, canaries: [EU, US] },
      want: { kind: "applied" },
    },
    {
      name: "one failed on its newest attempt: failed, naming it",
      records: [
        claim("c1", 1, "a1", "dec-1", [EU, US]),
        outcome("o1", 2, "a1", "dec-1", [
          { ...EU, outcome: "ok" },
          { ...US, outcome: "failed" },
        ]),
      ],
      query: { ...gated, canaries: [EU, US] },
      want: { kind: "failed", failed: ["us-1"] },
    },
    {
      name: "failed, then applied on a retry: applied",
      records: [
        claim("c1", 1, "a1", "dec-1", [EU]),
        outcome("o1", 2, "a1", "dec-1", [{ ...EU, outcome: "failed" }]),
        claim("c2", 3, "a1", "dec-2", [{ ...EU, attempt: 2 }]),
        outcome("o2", 4, "a1", "dec-2", [{ ...EU, attempt: 2, outcome: "ok" }]),
      ],
      query: { ...gated, canaries: [EU] },
      want: { kind: "applied" },
    },
    {
      name: "applied under another approval: not under this one",
      records: [
        claim("c1", 1, "a0", "dec-0", [EU]),
        outcome("o1", 2, "a0", "dec-0", [{ ...EU, outcome: "ok" }]),
      ],
      query: { ...gated, canaries: [EU] },
      want: { kind: "waiting", waiting: ["eu-3"], claimed: [] },
    },
    {
      name: "no approval, the deciding job recorded applied: applied",
      records: [waveOutcome(1, "dec-1", "decide", "applied")],
      query: { ...ungated, canaries: [EU] },
      want: { kind: "applied" },
    },
    {
      name:
        "no approval, its newest outcome failed: failed, for every canary run",
      records: [
        waveOutcome(1, "dec-1", "decide", "applied"),
        waveOutcome(2, "dec-1", "decide", "failed"),
      ],
      query: { ...ungated, canaries: [EU, US] },
      want: { kind: "failed", failed: ["eu-3", "us-1"] },
    },
    {
      name:
        "no approval, only another decision's, commit's or job's outcomes: waiting",
      records: [
        waveOutcome(1, "dec-0", "decide", "applied"),
        waveOutcome(1, "dec-1", "decide", "applied", "b".repeat(40)),
        waveOutcome(2, "dec-1", "share", "applied"),
        waveOutcome(3, "dec-1", "wave", "applied"),
      ],
      query: { ...ungated, canaries: [EU] },
      want: { kind: "waiting", waiting: ["eu-3"], claimed: [] },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(canaryStanding(c.records, c.query)).toStrictEqual(c.want);
    });
  }
});

Deno.test("canaryFailedAt() and stillFailed(): a canary that failed at a commit passes only by applying there", () => {
  const HEAD = "a".repeat(40);
  const failedOutcome = newRecord("wave-outcome", {
    name: "tf",
    gate: "tf-wave-3",
    wave: 3,
    head: HEAD,
    digest: digest("1"),
    decisionId: "20261206T120000.000Z-0123",
    job: { kind: "wave" },
    outcome: "failed",
    canaryFailed: ["p1"],
  }, { id: "o1", now: at(1) });
  expect(canaryFailedAt([failedOutcome], 3, HEAD)).toEqual(["p1"]);
  expect(canaryFailedAt([failedOutcome], 3, "b".repeat(40))).toEqual([]);
  const applied = { ...failedOutcome, id: "o2", outcome: "applied" as const };
  delete (applied as { canaryFailed?: string[] }).canaryFailed;
  expect(canaryFailedAt([failedOutcome, applied], 3, HEAD)).toEqual([]);
  expect(stillFailed(["p1"], [{ target: "p1", empty: true }])).toEqual(["p1"]);
  expect(stillFailed(["p1"], [{ target: "p2" }])).toEqual(["p1"]);
  expect(stillFailed(["p1"], [{ target: "p1" }])).toEqual([]);
});

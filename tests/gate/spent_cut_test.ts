// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { spentCut } from "../../src/gate/spent_cut.ts";
import type { PlanSetMember } from "../../src/gate/plan_set_file.ts";
import {
  approval,
  at,
  claim,
  digest,
  expired,
  outcome,
  pending,
} from "../ledger/_records.ts";

const EU = { target: "eu", planDigest: digest("1") };
const US = { target: "us", planDigest: digest("2") };
const EU2 = { target: "eu", planDigest: digest("3") };
const D1 = digest("a");
const D2 = digest("b");
const SETS = new Map<string, PlanSetMember[]>([
  [D1, [EU, US]],
  [D2, [EU2, { ...US, empty: true }]],
]);
const NOW = at(600);
const ok = (run: typeof EU) => ({ ...run, outcome: "ok" as const });

/** A rollout of D1 applied in full under approval a1. */
const APPLIED = [
  pending("p1", 1, D1),
  approval("a1", 2, D1),
  claim("c1", 3, "a1", "d1", [EU, US]),
  outcome("o1", 4, "a1", "d1", [ok(EU), ok(US)]),
];

Deno.test("spentCut() cuts a gate whose every approval since its newest revoke is spent", async (t) => {
  await t.step("an approval whose plans all applied", () => {
    expect(spentCut(APPLIED, SETS, NOW)).toEqual({
      approvals: ["a1"],
      at: at(4) + 1,
    });
  });
  await t.step("an approval whose targets applied other plans since", () => {
    const records = [
      approval("a0", 1, D1),
      ...APPLIED.slice(1),
      approval("a2", 5, D2),
      claim("c2", 6, "a2", "d2", [EU2]),
      outcome("o2", 7, "a2", "d2", [ok(EU2)]),
    ];
    // a2's `us` plan is empty: nothing to apply.
    expect(spentCut(records, SETS, NOW)?.approvals).toEqual(["a0", "a1", "a2"]);
  });
  await t.step(
    "an approval of a digest without a plan set, once another applied after it",
    () => {
      const records = [approval("a0", 1, digest("c")), ...APPLIED.slice(1)];
      expect(spentCut(records, SETS, NOW)?.approvals).toEqual(["a0", "a1"]);
    },
  );
  await t.step("only what came after the newest revoke", () => {
    const records = [approval("a0", 0, D2), expired("x1", 1), ...APPLIED];
    expect(spentCut(records, SETS, NOW)?.approvals).toEqual(["a1"]);
  });
  await t.step("never later than now", () => {
    expect(spentCut(APPLIED, SETS, at(3))?.at).toBe(at(3));
  });
});

Deno.test("spentCut() leaves a gate where an approval could still count, or something waits", async (t) => {
  await t.step("no approval since the newest revoke", () => {
    expect(spentCut([...APPLIED, expired("x1", 5)], SETS, NOW))
      .toBeUndefined();
    expect(spentCut([], SETS, NOW)).toBeUndefined();
  });
  await t.step("a plan of the approval not applied yet", () => {
    const records = [
      ...APPLIED.slice(0, 2),
      claim("c1", 3, "a1", "d1", [EU]),
      outcome("o1", 4, "a1", "d1", [ok(EU)]),
    ];
    expect(spentCut(records, SETS, NOW)).toBeUndefined();
  });
  await t.step("a plan that failed", () => {
    const records = [
      ...APPLIED.slice(0, 3),
      outcome("o1", 4, "a1", "d1", [ok(EU), { ...US, outcome: "failed" }]),
    ];
    expect(spentCut(records, SETS, NOW)).toBeUndefined();
  });
  await t.step("a claim with no outcome yet", () => {
    const records = [
      ...APPLIED,
      claim("c2", 5, "a1", "d2", [{ ...EU, attempt: 2 }]),
    ];
    expect(spentCut(records, SETS, NOW)).toBeUndefined();
  });
  await t.step("an approval given after the last apply", () => {
    expect(spentCut([...APPLIED, approval("a2", 5, D2)], SETS, NOW))
      .toBeUndefined();
  });
  await t.step(
    "an approval of a digest without a plan set, nothing applied after it",
    () => {
      expect(spentCut([...APPLIED, approval("a2", 5, digest("c"))], SETS, NOW))
        .toBeUndefined();
    },
  );
  await t.step("a pending fact standing with no approval after it", () => {
    expect(spentCut([...APPLIED, pending("p2", 5, D2)], SETS, at(30)))
      .toBeUndefined();
    // Once it has expired, nothing waits.
    expect(spentCut([...APPLIED, pending("p2", 5, D2)], SETS, at(120)))
      .toBeDefined();
  });
});

Deno.test("spentCut() ends the forge actions its approvals name, and every revoke's", () => {
  const via = "https://github.example/o/r/actions/runs/42";
  const records = [
    { ...expired("x1", 0), actionsThrough: { run: "20", job: "3" } },
    ...APPLIED.map((r) => r.kind === "approval" ? { ...r, via } : r),
  ];
  expect(spentCut(records, SETS, NOW)?.actionsThrough).toEqual({
    run: "42",
    job: "3",
  });
});

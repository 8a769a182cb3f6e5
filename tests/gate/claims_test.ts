// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  claimLedger,
  claimLedgers,
  usedApprovals,
} from "../../src/gate/claims.ts";
import {
  approval,
  claim,
  digest,
  outcome,
  sealed,
} from "../ledger/_records.ts";
import type { LedgerRecord } from "../../src/gate/records.ts";

const EU = { target: "eu", planDigest: digest("1") };
const US = { target: "us", planDigest: digest("2") };

Deno.test("claimLedger() tells where each plan stands under one approval", async (t) => {
  await t.step("never claimed: left, attempt 1", () => {
    expect(claimLedger([], "a1").standing(EU)).toEqual({
      kind: "left",
      attempt: 1,
    });
  });
  await t.step("the first claim of a plan and attempt wins", () => {
    const claims = claimLedger([
      claim("c1", 1, "a1", "dec-1", [EU]),
      claim("c2", 2, "a1", "dec-2", [EU, US]),
    ], "a1");
    expect(claims.standing(EU)).toMatchObject({
      kind: "unsettled",
      decisionId: "dec-1",
      attempt: 1,
      claimId: "c1",
    });
    expect(claims.standing(US)).toMatchObject({ decisionId: "dec-2" });
  });
  await t.step(
    "two attempts of one decision: the first wins, the other's outcome counts for nothing",
    () => {
      const claims = claimLedger([
        claim("c1", 1, "a1", "dec-1", [EU], "att-1"),
        claim("c2", 2, "a1", "dec-1", [EU], "att-2"),
        outcome("o2", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }], "att-2"),
      ], "a1");
      expect(claims.standing(EU)).toMatchObject({
        kind: "unsettled",
        decisionId: "dec-1",
        attemptId: "att-1",
        claimId: "c1",
      });
      const settled = claimLedger([
        claim("c1", 1, "a1", "dec-1", [EU], "att-1"),
        outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }], "att-1"),
      ], "a1");
      expect(settled.standing(EU)).toEqual({
        kind: "applied",
        decisionId: "dec-1",
      });
    },
  );
  await t.step("an ok outcome of the winner: applied", () => {
    const claims = claimLedger([
      claim("c1", 1, "a1", "dec-1", [EU]),
      outcome("o1", 2, "a1", "dec-1", [{ ...EU, outcome: "ok" }]),
    ], "a1");
    expect(claims.standing(EU)).toEqual({
      kind: "applied",
      decisionId: "dec-1",
    });
  });
  await t.step("a failed outcome: the next attempt may be claimed", () => {
    const claims = claimLedger([
      claim("c1", 1, "a1", "dec-1", [EU]),
      outcome("o1", 2, "a1", "dec-1", [{ ...EU, outcome: "failed" }]),
    ], "a1");
    expect(claims.standing(EU)).toEqual({ kind: "failed", attempt: 2 });
  });
  await t.step("attempt 2 claimed and applied", () => {
    const claims = claimLedger([
      claim("c1", 1, "a1", "dec-1", [EU]),
      outcome("o1", 2, "a1", "dec-1", [{ ...EU, outcome: "failed" }]),
      claim("c2", 3, "a1", "dec-2", [{ ...EU, attempt: 2 }]),
      outcome("o2", 4, "a1", "dec-2", [{ ...EU, attempt: 2, outcome: "ok" }]),
    ], "a1");
    expect(claims.standing(EU)).toEqual({
      kind: "applied",
      decisionId: "dec-2",
    });
  });
  await t.step(
    "an outcome from a decision that did not win counts for nothing",
    () => {
      const claims = claimLedger([
        claim("c1", 1, "a1", "dec-1", [EU]),
        outcome("o1", 2, "a1", "dec-2", [{ ...EU, outcome: "ok" }]),
      ], "a1");
      expect(claims.standing(EU).kind).toBe("unsettled");
    },
  );
  await t.step("claims of other approvals and plans are not this one's", () => {
    const claims = claimLedger([
      claim("c1", 1, "a2", "dec-1", [EU]),
      claim("c2", 1, "a1", "dec-1", [{ ...EU, planDigest: digest("9") }]),
    ], "a1");
    expect(claims.standing(EU).kind).toBe("left");
  });
});

Deno.test("claimLedgers() gives each approval the standings claimLedger() gives", async (t) => {
  const records = [
    claim("c1", 1, "a1", "dec-1", [EU]),
    claim("c2", 2, "a2", "dec-2", [EU, US]),
    outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }]),
    outcome("o2", 4, "a2", "dec-2", [{ ...US, outcome: "failed" }]),
  ];
  const of = claimLedgers(records);
  await t.step("per approval, the same as reading every record for it", () => {
    for (const id of ["a1", "a2", "a3"]) {
      for (const plan of [EU, US]) {
        expect(of(id).standing(plan)).toEqual(
          claimLedger(records, id).standing(plan),
        );
      }
    }
  });
  await t.step("claims of another approval do not count", () => {
    expect(of("a1").standing(US)).toEqual({ kind: "left", attempt: 1 });
    expect(of("a2").standing(US)).toEqual({ kind: "failed", attempt: 2 });
  });
});

function used(records: LedgerRecord[], plan = EU): string[] {
  const isUsed = usedApprovals(records, claimLedgers(records));
  return records.filter((r) => r.kind === "approval")
    .map((r) => r.id).filter((id) => isUsed(id, [plan]) === plan).sort();
}

Deno.test("usedApprovals() takes every approval before a claim that applied or has no outcome as used", async (t) => {
  const cases: { name: string; records: LedgerRecord[]; used: string[] }[] = [
    { name: "no claim: none used", records: [approval("a1", 1)], used: [] },
    {
      name: "a claim with no outcome uses every approval before it",
      records: [
        approval("a1", 1),
        approval("a2", 2),
        claim("c1", 3, "a2", "dec-1", [EU]),
        approval("a3", 4),
      ],
      used: ["a1", "a2"],
    },
    {
      name: "an applied claim uses them too",
      records: [
        approval("a1", 1),
        claim("c1", 2, "a1", "dec-1", [EU]),
        outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }]),
        approval("a2", 4),
      ],
      used: ["a1"],
    },
    {
      name: "a failed attempt uses none",
      records: [
        approval("a1", 1),
        claim("c1", 2, "a1", "dec-1", [EU]),
        outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "failed" }]),
      ],
      used: [],
    },
    {
      name: "a claim of another plan uses none for this one",
      records: [approval("a1", 1), claim("c1", 2, "a1", "dec-1", [US])],
      used: [],
    },
    {
      name: "the latest claim counts: approvals between two claims are used",
      records: [
        approval("a1", 1),
        claim("c1", 2, "a1", "dec-1", [EU]),
        outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }]),
        approval("a2", 4),
        claim("c2", 5, "a2", "dec-2", [EU]),
      ],
      used: ["a1", "a2"],
    },
    {
      name: "a sealed approval signed before a claim is used, wherever it sits",
      records: [
        sealed(approval("a1", 1)),
        claim("c1", 2, "a1", "dec-1", [EU]),
        outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }]),
        sealed(approval("a2", 1)),
        approval("a3", 1),
        sealed(approval("a4", 4)),
      ],
      used: ["a1", "a2"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(used(c.records)).toEqual(c.used);
    });
  }
});

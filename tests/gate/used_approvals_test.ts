// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { claimLedgers, usedApprovals } from "../../src/gate/claims.ts";
import type { LedgerRecord } from "../../src/gate/records.ts";
import {
  approval,
  claim,
  digest,
  outcome,
  sealed,
} from "../ledger/_records.ts";

const EU = { target: "eu", planDigest: digest("1") };
const US = { target: "us", planDigest: digest("2") };

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

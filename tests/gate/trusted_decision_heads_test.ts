// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { trustedDecisionHeads } from "../../src/gate/plan_fold.ts";
import { newRecord, pendingRecord } from "../../src/gate/records.ts";

const H1 = "1".repeat(40);
const H2 = "2".repeat(40);
const H3 = "3".repeat(40);
const D = `sha256:${"d".repeat(64)}`;
const stamp = { id: "01", now: 0 };

Deno.test("trustedDecisionHeads() keeps decisions made under a trusted base only", () => {
  const outcome = (head: string, baseRule?: "push" | "chain") =>
    newRecord("wave-outcome", {
      name: "n",
      gate: "n-wave-1",
      wave: 1,
      head,
      digest: D,
      decisionId: "d-1",
      job: { kind: "wave" },
      outcome: "applied",
      ...(baseRule ? { baseRule } : {}),
    }, stamp);
  const pending = pendingRecord(
    {
      name: "n",
      gate: "n-wave-1",
      planDigest: D,
      description: "",
      members: 1,
      base: H1,
      head: H3,
      baseRule: "flag",
    },
    1000,
    stamp,
  );
  expect([
    ...trustedDecisionHeads([
      outcome(H1, "push"),
      outcome(H2, "chain"),
      outcome(H2),
      pending,
    ]),
  ].sort()).toEqual([H1, H3]);
});

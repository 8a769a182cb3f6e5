// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { spentApprovals } from "../../src/gate/spent_approvals.ts";
import { approval, digest, outcome } from "../ledger/_records.ts";

const EU = { target: "eu", planDigest: digest("1") };
const US = { target: "us", planDigest: digest("2") };
const SET = digest("a");
const SETS = new Map([[SET, [EU, US]]]);
const ok = (run: typeof EU) => ({ ...run, outcome: "ok" as const });

Deno.test("spentApprovals() finds the approvals of earlier rollouts", async (t) => {
  const cases = [
    {
      name: "nothing applied: none",
      records: [approval("a1", 1, SET)],
      spent: [],
    },
    {
      name: "every plan applied under it: spent",
      records: [
        approval("a1", 1, SET),
        outcome("r1", 2, "a1", "d1", [ok(EU), ok(US)]),
      ],
      spent: ["a1"],
    },
    {
      name: "one target still to apply: not spent",
      records: [
        approval("a1", 1, SET),
        outcome("r1", 2, "a1", "d1", [ok(EU), { ...US, outcome: "failed" }]),
      ],
      spent: [],
    },
    {
      name: "two approvers, the plans claimed under the second: both spent",
      records: [
        approval("a1", 1, SET, "alice"),
        approval("a2", 2, SET, "bob"),
        outcome("r1", 3, "a2", "d1", [ok(EU), ok(US)]),
      ],
      spent: ["a1", "a2"],
    },
    {
      name: "an approval after the applies: not spent",
      records: [
        outcome("r1", 1, "a0", "d0", [ok(EU), ok(US)]),
        approval("a1", 2, SET),
      ],
      spent: [],
    },
    {
      name:
        "a digest without a plan set: spent once another approval applied after it",
      records: [
        approval("a1", 1, digest("b")),
        outcome("r1", 2, "a1", "d1", [ok(EU)]),
        outcome("r2", 3, "a9", "d2", [ok(US)]),
      ],
      spent: ["a1"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect([...spentApprovals(c.records, SETS)]).toEqual(c.spent);
    });
  }
});

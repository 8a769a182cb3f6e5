// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveCommand,
  approvedForAnotherMessage,
  approvedLines,
  gateName,
  noApprovalMessage,
  revokedLine,
  revokedMessage,
  uncoveredMessage,
} from "../../src/gate/gate_messages.ts";
import { D, D_OLD } from "../ledger/_records.ts";

Deno.test("gate messages use the wording of SPEC.md §4.5 and §5.3", async (t) => {
  const cases = [
    {
      name: "approved for another digest",
      got: approvedForAnotherMessage("tf-wave-2", D_OLD, "bob", D),
      want:
        `gate "tf-wave-2" is approved for ${D_OLD} by bob, but this plan is ${D}`,
    },
    {
      name: "a plan that moved since the approval",
      got: uncoveredMessage(
        { target: "eu", planDigest: D },
        D_OLD,
        { planDigest: D_OLD, by: "ann" },
      ),
      want:
        `eu: its plan moved since the approval of ${D_OLD} by ann: approved ${D_OLD}, planned now ${D}`,
    },
    {
      name: "a plan the approval never saw",
      got: uncoveredMessage({ target: "eu", planDigest: D }, undefined, {
        planDigest: D_OLD,
        by: "ann",
      }),
      want: `eu: the approval of ${D_OLD} by ann does not cover it`,
    },
    {
      name: "revoked",
      got: revokedMessage(D, "ann", "2026-11-30T09:00:00.000Z"),
      want:
        `the approval of ${D} by ann was revoked at 2026-11-30T09:00:00.000Z; approve again`,
    },
    {
      name: "no approval",
      got: noApprovalMessage("tf-wave-2", D),
      want: `gate "tf-wave-2" has no approval for ${D}`,
    },
    {
      name: "approve command",
      got: approveCommand("tf", "tf-wave-2", D),
      want: `chant-wave approve tf tf-wave-2 --plan ${D}`,
    },
    {
      name: "revoked line",
      got: revokedLine("tf", "tf-wave-2"),
      want:
        "revoked tf-wave-2 of tf: earlier approvals and pending facts no longer count",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(c.got).toBe(c.want));
  }
});

Deno.test("approvedLines() prints what approve prints", () => {
  expect(approvedLines("tf", "tf-wave-2", D, "ann")).toEqual([
    `approved tf-wave-2 of tf for ${D} by ann`,
    "this approves that plan only; a job whose fresh plan differs refuses it",
  ]);
});

Deno.test("gateName() is the spec's gate prefix, -wave-, and the wave's number", () => {
  expect(gateName({ gate: "tf" }, 2)).toBe("tf-wave-2");
  expect(gateName({ gate: "db" }, 12)).toBe("db-wave-12");
});

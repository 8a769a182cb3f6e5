// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { loosens, screenRecords } from "../../src/gate/screen_records.ts";
import {
  approvalRecord,
  expiredRecord,
  type LedgerRecord,
  newRecord,
  pendingRecord,
} from "../../src/gate/records.ts";

const NOW = Date.parse("2026-11-30T12:00:00.000Z");
const G = { name: "tf", gate: "tf-wave-1" };
const D = `sha256:${"d".repeat(64)}`;
const SHA = "a".repeat(40);
const run = { target: "eu", planDigest: D, attempt: 1 };
const outcome = { ...G, approvalId: "a1", decisionId: "d1" };

/** Every kind of record (and each outcome that matters), made at `ms`. */
function records(ms: number): [string, LedgerRecord, boolean][] {
  const stamp = (id: string) => ({ id, now: NOW + ms });
  return [
    [
      "an approval",
      approvalRecord({ ...G, planDigest: D, by: "ann" }, stamp("approval")),
      true,
    ],
    [
      "recorded plans",
      newRecord("recorded-plans", { ...G, head: SHA, waves: [] }, stamp("rp")),
      true,
    ],
    [
      "an applied wave outcome",
      newRecord("wave-outcome", {
        ...G,
        wave: 1,
        head: SHA,
        digest: D,
        decisionId: "d1",
        job: { kind: "wave" },
        outcome: "applied",
      }, stamp("wo-applied")),
      true,
    ],
    [
      "a nothing-to-do wave outcome",
      newRecord("wave-outcome", {
        ...G,
        wave: 1,
        head: SHA,
        digest: D,
        decisionId: "d1",
        job: { kind: "wave" },
        outcome: "nothing-to-do",
      }, stamp("wo-nothing")),
      true,
    ],
    [
      "a run outcome with a failed run",
      newRecord("run-outcome", {
        ...outcome,
        runs: [{ ...run, outcome: "ok" }, {
          ...run,
          target: "us",
          outcome: "failed",
        }],
      }, stamp("ro-failed")),
      true,
    ],
    ["a revoke", expiredRecord({ ...G, approvals: ["x"] }, stamp("rv")), false],
    [
      "a claim",
      newRecord("claim", { ...outcome, runs: [run] }, stamp("claim")),
      false,
    ],
    [
      "a run outcome whose runs applied",
      newRecord("run-outcome", {
        ...outcome,
        runs: [{ ...run, outcome: "ok" }],
      }, stamp("ro-ok")),
      false,
    ],
    [
      "a failed wave outcome",
      newRecord("wave-outcome", {
        ...G,
        wave: 1,
        head: SHA,
        digest: D,
        decisionId: "d1",
        job: { kind: "wave" },
        outcome: "failed",
      }, stamp("wo-failed")),
      false,
    ],
    [
      "a pending fact",
      pendingRecord(
        {
          ...G,
          planDigest: D,
          description: "",
          members: 1,
          base: SHA,
          actor: "dana",
        },
        3_600_000,
        stamp("pending"),
      ),
      false,
    ],
    [
      "an out-of-order run",
      newRecord("out-of-order", {
        ...G,
        wave: 2,
        head: SHA,
        by: "ann",
        reason: "hotfix",
      }, stamp("ooo")),
      false,
    ],
  ];
}

Deno.test("loosens() tells the records that can let something go on", async (t) => {
  for (const [name, record, want] of records(0)) {
    await t.step(`${name}: ${want}`, () => expect(loosens(record)).toBe(want));
  }
});

Deno.test("screenRecords() drops only loosening records dated more than 5 minutes ahead", async (t) => {
  const ahead = 5 * 60_000 + 1;
  for (const [name, record, loosening] of records(ahead)) {
    await t.step(name, () => {
      const got = screenRecords({ records: [record], problems: [] }, NOW);
      const dated =
        `${record.kind} ${record.id} of gate "tf-wave-1" is dated 2026-11-30T12:05:00.001Z, more than 5 minutes ahead of this clock; `;
      if (loosening) {
        expect(got.records).toEqual([]);
        expect(got.future).toEqual([record]);
        expect(got.problems).toEqual([`${dated}it does not count`]);
      } else {
        expect(got.records).toEqual([record]);
        expect(got.future).toBeUndefined();
        expect(got.problems).toEqual([
          `${dated}it counts, since it can only make the gate stricter`,
        ]);
      }
    });
  }
  await t.step("at exactly 5 minutes ahead, everything counts", () => {
    const all = records(5 * 60_000).map(([, record]) => record);
    expect(screenRecords({ records: all, problems: ["p"] }, NOW)).toEqual({
      records: all,
      problems: ["p"],
    });
  });
  await t.step("records dated in the past are never screened", () => {
    const all = records(-86_400_000).map(([, record]) => record);
    expect(screenRecords({ records: all, problems: [] }, NOW).records)
      .toEqual(all);
  });
  await t.step("the order of what counts is kept", () => {
    const early = records(0).map(([, record]) => record);
    const late = records(ahead).map(([, record]) => record);
    const got = screenRecords(
      { records: [...early, ...late], problems: [] },
      NOW,
    );
    expect(got.records).toEqual([
      ...early,
      ...late.filter((record) => !loosens(record)),
    ]);
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  compareRecords,
  dropApprovalCopies,
  dropArrivedAfter,
  loosens,
  onlyTightens,
  screenRecords,
  sortRecords,
} from "../../src/gate/screen_records.ts";
import {
  approvalRecord,
  expiredRecord,
  type LedgerRecord,
  newRecord,
  pendingRecord,
} from "../../src/gate/records.ts";
import {
  approval,
  claim,
  D,
  D_OLD,
  digest,
  expired,
  GATE,
  pending,
  sealed,
} from "../ledger/_records.ts";

const NOW = Date.parse("2026-11-30T12:00:00.000Z");
const G = { name: "tf", gate: "tf-wave-1" };
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

Deno.test("dropApprovalCopies() reads a sealed approval once, at its first record", () => {
  const first = sealed(approval("a1", 1));
  const spent = claim("c1", 2, "a1", "dec-1", [{
    target: "eu",
    planDigest: D,
  }]);
  const copy = { ...first, id: "a2" };
  const read = dropApprovalCopies({
    records: [first, spent, copy],
    problems: [],
  });
  expect(read.records).toEqual([first, spent]);
  expect(read.problems).toEqual([
    'approval a2 of gate "tf-wave-2" repeats the sealed approval a1 (the same digest, approver and signed time): it is that approval, not another, and does not count again',
  ]);
});

Deno.test("dropApprovalCopies() keeps approvals that differ, and unsealed ones", () => {
  const records = [
    sealed(approval("a1", 1)),
    sealed(approval("a2", 2)),
    sealed(approval("a3", 1, D_OLD)),
    sealed(approval("a4", 1, D, "bob")),
    approval("a5", 1),
    approval("a6", 1),
  ];
  const read = { records, problems: [] };
  expect(dropApprovalCopies(read)).toBe(read);
});

const D1 = digest("1");
const EU = { target: "eu", planDigest: D1 };

Deno.test("dropArrivedAfter() drops late records that loosen, keeps those that tighten and the job's own", () => {
  const early = approval("a0", 1, D1, "ann");
  const late = approval("a1", 2, D1, "mallory");
  const mine = approval("a2", 3, D1, "me");
  const revoke = expired("e1", 4, []);
  const taken = claim("c1", 5, "a0", "dec-1", [EU]);
  const read = {
    records: [early, late, mine, revoke, taken],
    problems: ["older problem"],
  };
  const out = dropArrivedAfter(
    read,
    new Set([late, mine, revoke, taken]),
    new Set(["a2"]),
  );
  expect(out.records).toEqual([early, mine, revoke, taken]);
  expect(out.problems).toEqual([
    "older problem",
    `approval a1 of gate "${GATE}" reached the ledger after this job started its first command of the change; it does not count for this job`,
  ]);
  expect(dropArrivedAfter(read, new Set(), new Set())).toBe(read);
});

Deno.test("onlyTightens() is true of revokes and claims only", () => {
  expect(onlyTightens(expired("e1", 1, []))).toBe(true);
  expect(onlyTightens(claim("c1", 1, "a0", "dec-1", [EU]))).toBe(true);
  expect(onlyTightens(approval("a1", 1, D1, "ann"))).toBe(false);
});

Deno.test("sortRecords() orders by timestamp, ties by id", () => {
  const records = [
    approval("b", 2),
    expired("z", 1),
    pending("a", 3),
    claim("a", 2, "b", "dec-1", []),
    approval("c", 2),
  ];
  expect(sortRecords(records).map((r) => `${r.kind}:${r.id}`)).toEqual([
    "expired:z",
    "claim:a",
    "approval:b",
    "approval:c",
    "pending:a",
  ]);
  expect(records[0].id).toBe("b"); // the input is left alone
});

Deno.test("sortRecords() compares times, not timestamp text", () => {
  // Same instant written with more fraction digits sorts by id.
  const a = { ...approval("b", 1), timestamp: "2026-11-30T09:01:00.000000Z" };
  const b = approval("a", 1);
  expect(sortRecords([a, b]).map((r) => r.id)).toEqual(["a", "b"]);
});

Deno.test("compareRecords() ties by id in code unit order", () => {
  expect(compareRecords(approval("B", 1), approval("a", 1))).toBeLessThan(0);
  expect(compareRecords(approval("a", 1), approval("a", 1))).toBe(0);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  decideGate,
  type GateDecision,
  newestPending,
  newestPendingDigest,
  standingPending,
} from "../../src/ledger/decide_gate.ts";
import type { LedgerRecord } from "../../src/ledger/records.ts";
import { sortRecords } from "../../src/ledger/sort_records.ts";
import {
  applied,
  approval,
  at,
  D,
  D_OLD,
  digest,
  expired,
  GATE,
  pending,
} from "./_records.ts";

const NOW = at(30);

interface Case {
  name: string;
  records: LedgerRecord[];
  decisionId?: string;
  want: GateDecision;
}

const a1 = approval("a1", 1);
const a2 = approval("a2", 5, D, "bob");
const old = approval("o1", 2, D_OLD, "bob");

const cases: Case[] = [
  {
    name: "no records: waiting, no approval",
    records: [],
    want: {
      status: "waiting",
      reasons: [`gate "${GATE}" has no approval for ${D}`],
    },
  },
  {
    name: "an approval of D: approved",
    records: [a1],
    decisionId: "dec-1",
    want: { status: "approved", approval: a1 },
  },
  {
    name: "an approval of another digest: waiting, says which",
    records: [old],
    want: {
      status: "waiting",
      reasons: [
        `gate "${GATE}" is approved for ${D_OLD} by bob, but this plan is ${D}`,
      ],
    },
  },
  {
    name: "revoked: an expired record newer than the approval",
    records: [a1, expired("e1", 3)],
    want: {
      status: "waiting",
      reasons: [
        `the approval of ${D} by ann was revoked at 2026-11-30T09:03:00.000Z; approve again`,
      ],
    },
  },
  {
    name: "approval, revoke, new approval: the new one counts",
    records: [a1, expired("e1", 3), a2],
    want: { status: "approved", approval: a2 },
  },
  {
    name: "a revoke also clears approvals of other digests",
    records: [old, expired("e1", 3)],
    want: {
      status: "waiting",
      reasons: [`gate "${GATE}" has no approval for ${D}`],
    },
  },
  {
    name: "spent by another decision: waiting, says which",
    records: [a1, applied("p1", 2, "a1", "dec-1")],
    decisionId: "dec-2",
    want: {
      status: "waiting",
      reasons: [
        `the approval of ${D} by ann was used by decision dec-1; approve again`,
      ],
    },
  },
  {
    name: "spent, seen without a decision (status, dry run)",
    records: [a1, applied("p1", 2, "a1", "dec-1")],
    want: {
      status: "waiting",
      reasons: [
        `the approval of ${D} by ann was used by decision dec-1; approve again`,
      ],
    },
  },
  {
    name: "spent names the first other decision that applied",
    records: [
      a1,
      applied("p1", 2, "a1", "dec-1"),
      applied("p2", 3, "a1", "dec-3"),
    ],
    decisionId: "dec-2",
    want: {
      status: "waiting",
      reasons: [
        `the approval of ${D} by ann was used by decision dec-1; approve again`,
      ],
    },
  },
  {
    name: "the same decision keeps applying under the approval it spent",
    records: [a1, applied("p1", 2, "a1", "dec-1")],
    decisionId: "dec-1",
    want: {
      status: "approved",
      approval: a1,
      applied: applied("p1", 2, "a1", "dec-1"),
    },
  },
  {
    name: "the newest counting approval wins",
    records: [a1, a2],
    decisionId: "dec-1",
    want: { status: "approved", approval: a2 },
  },
  {
    name: "a spent newer approval gives way to an older unspent one",
    records: [a1, a2, applied("p1", 6, "a2", "dec-1")],
    decisionId: "dec-2",
    want: { status: "approved", approval: a1 },
  },
  {
    name: "a newer approval of another digest does not hide D's",
    records: [a1, approval("o2", 4, D_OLD, "bob")],
    decisionId: "dec-1",
    want: { status: "approved", approval: a1 },
  },
  {
    name: "spent and another digest approved: both reasons",
    records: [
      a1,
      applied("p1", 2, "a1", "dec-1"),
      approval("o2", 4, D_OLD, "bob"),
    ],
    decisionId: "dec-2",
    want: {
      status: "waiting",
      reasons: [
        `the approval of ${D} by ann was used by decision dec-1; approve again`,
        `gate "${GATE}" is approved for ${D_OLD} by bob, but this plan is ${D}`,
      ],
    },
  },
  {
    name: "ties by id: same time, the larger id is newer",
    records: sortRecords([approval("b", 1, D, "bob"), approval("a", 1)]),
    want: { status: "approved", approval: approval("b", 1, D, "bob") },
  },
  {
    name: "ties by id: an expired record with a larger id revokes",
    records: sortRecords([expired("z", 1), approval("a", 1)]),
    want: {
      status: "waiting",
      reasons: [
        `the approval of ${D} by ann was revoked at 2026-11-30T09:01:00.000Z; approve again`,
      ],
    },
  },
  {
    name: "ties by id: an approval with a larger id survives the revoke",
    records: sortRecords([approval("z", 1), expired("a", 1)]),
    want: { status: "approved", approval: approval("z", 1) },
  },
  {
    name: "waiting reports the standing pending fact of D",
    records: [pending("w1", 10)],
    want: {
      status: "waiting",
      reasons: [`gate "${GATE}" has no approval for ${D}`],
      standing: pending("w1", 10),
    },
  },
];

Deno.test("decideGate() decides per SPEC.md §5.3", async (t) => {
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = decideGate(c.records, {
        gate: GATE,
        digest: D,
        decisionId: c.decisionId,
        now: NOW,
      });
      expect(got).toEqual(c.want);
    });
  }
});

Deno.test("decideGate() does not reorder its records", () => {
  // Ledger order is the caller's (the git ledger orders by arrival): the last
  // approval given wins even when its timestamp is older.
  const got = decideGate([a2, a1], { gate: GATE, digest: D, now: NOW });
  expect(got).toEqual({ status: "approved", approval: a1 });
});

Deno.test("standingPending() finds an unexpired pending fact of D", async (t) => {
  const cases: {
    name: string;
    records: LedgerRecord[];
    now: number;
    want: string | undefined;
  }[] = [
    { name: "none", records: [], now: NOW, want: undefined },
    { name: "standing", records: [pending("w1", 10)], now: NOW, want: "w1" },
    {
      name: "the newest of two",
      records: [pending("w1", 10), pending("w2", 20)],
      now: NOW,
      want: "w2",
    },
    {
      name: "expired by its TTL",
      records: [pending("w1", 10, D, 60)],
      now: at(70),
      want: undefined,
    },
    {
      name: "still standing a millisecond before its TTL",
      records: [pending("w1", 10, D, 60)],
      now: at(70) - 1,
      want: "w1",
    },
    {
      name: "cleared by a revoke",
      records: [pending("w1", 10), expired("e1", 11)],
      now: NOW,
      want: undefined,
    },
    {
      name: "written again after a revoke",
      records: [pending("w1", 10), expired("e1", 11), pending("w2", 12)],
      now: NOW,
      want: "w2",
    },
    {
      name: "of another digest only",
      records: [pending("w1", 10, D_OLD)],
      now: NOW,
      want: undefined,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(standingPending(c.records, D, c.now)?.id).toBe(c.want);
    });
  }
});

Deno.test("newestPendingDigest() picks the newest unexpired pending fact", async (t) => {
  const D2 = digest("2");
  const cases: {
    name: string;
    records: LedgerRecord[];
    want: string | undefined;
  }[] = [
    { name: "none", records: [], want: undefined },
    {
      name: "the newest, whatever its digest",
      records: [pending("w1", 10, D), pending("w2", 20, D2)],
      want: D2,
    },
    {
      name: "skips one whose TTL ran out",
      records: [pending("w1", 10, D, 60), pending("w2", 20, D2, 5)],
      want: D,
    },
    {
      name: "none after a revoke",
      records: [pending("w1", 10), expired("e1", 11)],
      want: undefined,
    },
    {
      name: "ignores approvals and applied facts",
      records: [pending("w1", 10, D2), a2, applied("p1", 12, "a2", "dec-1")],
      want: D2,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(newestPendingDigest(c.records, NOW)).toBe(c.want);
      expect(newestPending(c.records, NOW)?.planDigest).toBe(c.want);
    });
  }
});

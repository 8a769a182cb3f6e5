// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  alreadyAppliedIn,
  type AlreadyAppliedQuery,
  emptyRunsOf,
  findAlreadyApplied,
} from "../../src/run/already_applied.ts";
import { memoryWriter } from "../../src/console/writer.ts";
import type { Ledger as LedgerStore } from "../../src/ledger/ledger.ts";
import {
  type LedgerRecord,
  newRecord,
  type WaveOutcome,
} from "../../src/gate/records.ts";
import {
  approval,
  at,
  claim,
  digest,
  GATE,
  NAME,
  outcome,
} from "../ledger/_records.ts";

const HEAD = "a".repeat(40);
const EU = { target: "eu", planDigest: digest("1") };

function waveOutcome(
  id: string,
  minute: number,
  result: WaveOutcome,
  job: AlreadyAppliedQuery["job"] = { kind: "share", share: 1 },
  head = HEAD,
): LedgerRecord {
  return newRecord("wave-outcome", {
    name: NAME,
    gate: GATE,
    wave: 2,
    head,
    digest: digest("d"),
    decisionId: "dec-1",
    job,
    outcome: result,
  }, { id, now: at(minute) });
}

const applied = [
  approval("a1", 1),
  claim("c1", 2, "a1", "dec-1", [EU]),
  outcome("o1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }]),
];

function query(extra: Partial<AlreadyAppliedQuery>): AlreadyAppliedQuery {
  return {
    name: NAME,
    gate: GATE,
    wave: 2,
    head: HEAD,
    job: { kind: "share", share: 1 },
    runs: [{ target: "eu", moved: true, decided: EU }],
    gated: true,
    approvalId: "a1",
    ...extra,
  };
}

Deno.test("alreadyAppliedIn() counts only what the ledger shows applied", async (t) => {
  const cases: {
    name: string;
    records: LedgerRecord[];
    query: Partial<AlreadyAppliedQuery>;
    already: string[];
  }[] = [
    {
      name: "gated: the decided plan applied under the decision's approval",
      records: applied,
      query: {},
      already: ["eu"],
    },
    {
      name: "gated: applied under another approval only",
      records: [...applied, approval("a2", 4)],
      query: { approvalId: "a2" },
      already: [],
    },
    {
      name: "gated: claimed with no outcome",
      records: applied.slice(0, 2),
      query: {},
      already: [],
    },
    {
      name: "gated: an applied wave outcome is not enough",
      records: [waveOutcome("w1", 4, "applied")],
      query: {},
      already: [],
    },
    {
      name: "gated: a decision naming no approval",
      records: applied,
      query: { approvalId: undefined },
      already: [],
    },
    {
      name: "needing none: this job applied at this head",
      records: [waveOutcome("w1", 4, "applied")],
      query: { gated: false },
      already: ["eu"],
    },
    {
      name: "needing none: another share applied at this head",
      records: [waveOutcome("w1", 4, "applied", { kind: "share", share: 2 })],
      query: { gated: false },
      already: [],
    },
    {
      name: "needing none: this job applied at another head",
      records: [
        waveOutcome("w1", 4, "applied", undefined, "b".repeat(40)),
      ],
      query: { gated: false },
      already: [],
    },
    {
      name: "needing none: its outcome failed",
      records: [waveOutcome("w1", 4, "failed")],
      query: { gated: false },
      already: [],
    },
    {
      name: "moved, and the decision lacks the run",
      records: [waveOutcome("w1", 4, "applied")],
      query: { gated: false, runs: [{ target: "eu", moved: true }] },
      already: [],
    },
    {
      name: "not moved: named after an applied outcome at this head",
      records: [waveOutcome("w1", 4, "applied")],
      query: { runs: [{ target: "eu", moved: false }] },
      already: ["eu"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect([...alreadyAppliedIn(c.records, query(c.query))]).toEqual(
        c.already,
      );
    });
  }
});

Deno.test("emptyRunsOf() lists the empty runs with their decided plans", () => {
  const plan = (empty: boolean) => ({ plan: { empty } });
  expect(
    emptyRunsOf(
      [
        { target: "eu", ...plan(true) },
        { target: "us", ...plan(false) },
        { target: "ap", ...plan(true) },
      ],
      [EU],
      ["eu", "ap"],
    ),
  ).toEqual([
    { target: "eu", moved: true, decided: EU },
    { target: "ap", moved: true },
  ]);
});

Deno.test("findAlreadyApplied() reads the gate only when it has no records and some plan is empty", async (t) => {
  const reads: string[] = [];
  const ledger = {
    readGate: (name: string, gate: string) => {
      reads.push(`${name}/${gate}`);
      return Promise.resolve({ records: applied, problems: ["odd record"] });
    },
  } as Pick<LedgerStore, "readGate"> as LedgerStore;
  const stderr = memoryWriter();
  const io = { ledger, stderr };
  await t.step("no empty plan: nothing is read", async () => {
    expect(await findAlreadyApplied(query({ runs: [] }), io)).toEqual(
      new Set(),
    );
    expect(reads).toEqual([]);
  });
  await t.step("records the job read already: nothing is read", async () => {
    expect(await findAlreadyApplied(query({}), io, applied)).toEqual(
      new Set(["eu"]),
    );
    expect(reads).toEqual([]);
  });
  await t.step("else the gate is read, its problems logged", async () => {
    expect(await findAlreadyApplied(query({}), io)).toEqual(new Set(["eu"]));
    expect(reads).toEqual([`${NAME}/${GATE}`]);
    expect(stderr.lines()).toEqual(["warning: ledger: odd record"]);
  });
});

Deno.test("findAlreadyApplied() reads the gate's history when compaction folded the decision's approval", async (t) => {
  const reads: string[] = [];
  const ledger = {
    readAll: (name: string, gate: string) => {
      reads.push(`${name}/${gate}`);
      return Promise.resolve({
        records: applied,
        problems: [],
        folded: new Set(applied),
      });
    },
  } as Pick<LedgerStore, "readAll"> as LedgerStore;
  const io = { ledger, stderr: memoryWriter() };
  await t.step(
    "the tip holds the approval: its history is not read",
    async () => {
      expect(await findAlreadyApplied(query({}), io, [approval("a1", 1)]))
        .toEqual(new Set());
      expect(reads).toEqual([]);
    },
  );
  await t.step("folded: what it applied is read from the history", async () => {
    const summary = newRecord("folded", {
      name: NAME,
      gate: GATE,
      through: "x1",
      records: 3,
      counts: { approval: 1, claim: 1, "run-outcome": 1 },
      sets: 0,
      approvals: ["a1"],
      archive: "archive/gates/tf/tf-wave-2",
    }, { id: "f1", now: at(5) });
    expect(await findAlreadyApplied(query({}), io, [summary]))
      .toEqual(new Set(["eu"]));
    expect(reads).toEqual([`${NAME}/${GATE}`]);
  });
});

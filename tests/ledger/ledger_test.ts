// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Git } from "../../src/git/git.ts";
import { dirLedger } from "../../src/ledger/dir/dir_ledger.ts";
import type { Ledger as LedgerStore } from "../../src/ledger/ledger.ts";
import {
  type LedgerRecord,
  newRecord,
  type OutcomeJob,
} from "../../src/gate/records.ts";
import type { BaseRule } from "../../src/gate/base_rule.ts";
import { tempDir } from "../_helpers/binary.ts";
import { DIGESTS, HEADS, ids, PAIRS, SETS, view } from "./_fold_view.ts";
import {
  approval,
  at,
  claim,
  expired,
  GATE,
  NAME,
  outcome,
  pending,
} from "./_records.ts";
import { ledgerWorld } from "./git_ledger_fixture.ts";

const G1 = "tf-wave-1";
const [H1, H2] = HEADS;
const [D0, D1, D2] = DIGESTS;
const [P0, P1, P2, P3] = PAIRS;

/** Two ledgers of one kind: one to compact, one to compare with. */
interface Twins extends AsyncDisposable {
  a: LedgerStore;
  b: LedgerStore;
  /** The record files at the tip of `a`'s gate `gate`. */
  tipFiles(gate: string): Promise<string[]>;
}

async function gitTwins(): Promise<Twins> {
  const [one, two] = [await ledgerWorld(), await ledgerWorld()];
  return {
    a: one.open(one.repo.path).ledger,
    b: two.open(two.repo.path).ledger,
    async tipFiles(gate) {
      const out = await one.repo.gitIn(
        one.remote,
        "ls-tree",
        "--name-only",
        `chant/ledger:gates/${NAME}/${gate}`,
      );
      return out.split("\n").filter((f) => f.endsWith(".json"));
    },
    async [Symbol.asyncDispose]() {
      await one[Symbol.asyncDispose]();
      await two[Symbol.asyncDispose]();
    },
  };
}

async function dirTwins(): Promise<Twins> {
  const [one, two] = [await tempDir(), await tempDir()];
  return {
    a: dirLedger(one.path),
    b: dirLedger(two.path),
    async tipFiles(gate) {
      const files = [];
      for await (
        const entry of Deno.readDir(`${one.path}/gates/${NAME}/${gate}`)
      ) {
        if (entry.name.endsWith(".json")) files.push(entry.name);
      }
      return files;
    },
    async [Symbol.asyncDispose]() {
      await one[Symbol.asyncDispose]();
      await two[Symbol.asyncDispose]();
    },
  };
}

function waveOutcome(
  id: string,
  minute: number,
  fields: {
    gate: string;
    wave: number;
    head: string;
    outcome: "applied" | "failed";
    job?: OutcomeJob;
    baseRule?: BaseRule;
  },
) {
  return newRecord("wave-outcome", {
    name: NAME,
    gate: fields.gate,
    wave: fields.wave,
    head: fields.head,
    digest: D0,
    decisionId: `d-${id}`,
    job: fields.job ?? { kind: "wave" },
    outcome: fields.outcome,
    ...(fields.baseRule ? { baseRule: fields.baseRule } : {}),
  }, { id, now: at(minute) });
}

/** A step of a gate's history: a record, or a claim made as a job makes it. */
type Step = LedgerRecord | { claimed: LedgerRecord };

/** The same history, into a ledger. */
async function play(ledger: LedgerStore, steps: readonly Step[]) {
  for (const step of steps) {
    if ("claimed" in step) {
      if (step.claimed.kind !== "claim") throw new Error("not a claim");
      await ledger.claimRuns(step.claimed);
    } else {
      if (step.kind === "pending") {
        await ledger.writePlanSet(
          step.name,
          step.gate,
          step.planDigest,
          SETS[DIGESTS.indexOf(step.planDigest)],
        );
      }
      await ledger.write(step);
    }
  }
}

const inG1 = <R extends LedgerRecord>(record: R): R => ({
  ...record,
  gate: G1,
});
const trusted = <R extends LedgerRecord>(
  record: R,
  head: string,
  baseRule: BaseRule,
): R => ({ ...record, head, baseRule });

/**
 * Two waves: revokes, a failed plan retried, a dead claim, outcomes at two
 * commits, a run out of order, decisions under trusted and chain bases.
 */
const HISTORY: Step[] = [
  trusted(inG1(pending("p1", 1, D0)), H1, "push"),
  inG1(approval("a1", 2, D0)),
  { claimed: inG1(claim("c1", 3, "a1", "d1", [P0])) },
  inG1(outcome("o1", 4, "a1", "d1", [{ ...P0, outcome: "ok" }])),
  waveOutcome("w1", 5, { gate: G1, wave: 1, head: H1, outcome: "applied" }),
  inG1(expired("x1", 6, ["a1"])),
  trusted(inG1(pending("p2", 7, D1)), H2, "chain"),
  waveOutcome("w2", 8, { gate: G1, wave: 1, head: H2, outcome: "failed" }),
  waveOutcome("w3", 9, {
    gate: G1,
    wave: 1,
    head: H2,
    outcome: "applied",
    baseRule: "push",
  }),
  trusted({ ...pending("q1", 10, D0), actor: "dana" }, H1, "push"),
  approval("b1", 11, D0),
  { claimed: claim("k1", 12, "b1", "d2", [P0]) },
  outcome("m1", 13, "b1", "d2", [{ ...P0, outcome: "failed" }]),
  { claimed: claim("k2", 14, "b1", "d3", [{ ...P0, attempt: 2 }]) },
  outcome("m2", 15, "b1", "d3", [{ ...P0, attempt: 2, outcome: "ok" }]),
  { claimed: claim("k3", 16, "b1", "d3", [P1]) },
  outcome("m3", 17, "b1", "d3", [{ ...P1, outcome: "ok" }]),
  pending("q5", 18, D1),
  approval("b2", 19, D1, "bob"),
  { claimed: claim("k4", 20, "b2", "d4", [P2]) },
  waveOutcome("v1", 21, { gate: GATE, wave: 2, head: H1, outcome: "failed" }),
  waveOutcome("v2", 22, { gate: GATE, wave: 2, head: H1, outcome: "applied" }),
  newRecord("out-of-order", {
    name: NAME,
    gate: GATE,
    wave: 2,
    head: H2,
    by: "eve",
    reason: "hotfix",
  }, { id: "oo", now: at(23) }),
  expired("y1", 24, ["b1", "b2"]),
  trusted(pending("q2", 25, D2), H2, "chain"),
  approval("b3", 26, D2),
  { claimed: claim("k5", 27, "b3", "d5", [P3]) },
  outcome("m5", 28, "b3", "d5", [{ ...P3, outcome: "failed" }]),
  pending("q3", 29, D1),
  expired("y2", 30),
  pending("q4", 31, D0),
];

/** What comes after the first fold: a retry, a re-decided plan, another revoke. */
const LATER: Step[] = [
  approval("b4", 32, D0, "carol"),
  { claimed: claim("k6", 33, "b4", "d6", [P0]) },
  outcome("m6", 34, "b4", "d6", [{ ...P0, outcome: "failed" }]),
  { claimed: claim("k7", 35, "b4", "d7", [{ ...P0, attempt: 2 }]) },
  outcome("m7", 36, "b4", "d7", [{ ...P0, attempt: 2, outcome: "ok" }]),
  pending("q6", 37, D1),
  waveOutcome("v3", 38, {
    gate: GATE,
    wave: 2,
    head: H2,
    outcome: "applied",
    job: { kind: "share", share: 1 },
  }),
  expired("y3", 39, ["b4"]),
  pending("q7", 40, D2),
  approval("b5", 41, D2, "dana"),
];

/** Everything every reader reads of both gates, whole and from the newest revoke on. */
async function views(ledger: LedgerStore) {
  const now = at(60);
  const out = [];
  for (const gate of [G1, GATE]) {
    for (const live of [false, true]) {
      const read = await ledger.readGate(NAME, gate, live ? { live } : {});
      expect(read.problems).toEqual([]);
      // Read as a decision reads them: at the tip the gate was read at.
      const sets = await ledger.readPlanSets(NAME, gate, DIGESTS);
      out.push(view(read.records, sets, now));
    }
  }
  return out;
}

/** The ids of a gate's whole history, claim files of the directory ledger as their claims. */
async function history(ledger: LedgerStore, gate: string) {
  const all = await ledger.readAll(NAME, gate);
  expect(all.problems).toEqual([]);
  const id = (r: LedgerRecord) => r.id.replace(/-\d+$/, "");
  return {
    ids: all.records.map(id),
    folded: all.records.filter((r) => all.folded.has(r)).map(id),
    summaries: all.records.filter((r) => r.kind === "folded").map(id),
  };
}

/** The first fold of gate 2: what its newest revoke (y2) ended, settled. */
const FOLDED = [
  "b1",
  "k1",
  "m1",
  "k2",
  "m2",
  "k3",
  "m3",
  "q5",
  "v1",
  "y1",
  "q2",
  "b3",
  "k5",
  "m5",
  "q3",
];

for (
  const [kind, twins] of [["git", gitTwins], ["directory", dirTwins]] as const
) {
  Deno.test(`compact() of the ${kind} ledger changes no decision, and ledger log still has every record`, async (t) => {
    await using both = await twins();
    const { a, b } = both;
    await play(a, HISTORY);
    await play(b, HISTORY);
    expect(await views(a)).toEqual(await views(b));
    const before = await history(b, GATE);

    await t.step("the first fold", async () => {
      const dry = await a.compact({ dryRun: true });
      const folds = (gates: typeof dry.gates) =>
        gates.map((g) => [g.gate, g.records, g.sets]);
      expect(folds(dry.gates)).toEqual([[G1, 3, 0], [GATE, 15, 1]]);
      const files = await both.tipFiles(GATE);
      const report = await a.compact();
      expect(folds(report.gates)).toEqual([[G1, 3, 0], [GATE, 15, 1]]);
      const summary = report.gates[1].summary!;
      expect(summary).toMatchObject({
        kind: "folded",
        through: "y2",
        records: 15,
        sets: 1,
        approvals: ["b1", "b3"],
      });
      expect(summary.counts).toEqual({
        approval: 2,
        claim: 4,
        "run-outcome": 4,
        pending: 3,
        "wave-outcome": 1,
        expired: 1,
      });
      expect(await views(a)).toEqual(await views(b));
      expect(await a.readPlanSet(NAME, GATE, D2)).toBeUndefined();
      const tip = await both.tipFiles(GATE);
      expect(tip.length).toBeLessThan(files.length);
      expect(tip.filter((f) => FOLDED.some((id) => f.includes(`-${id}.`))))
        .toEqual([]);
      const after = await history(a, GATE);
      expect(after.ids).toEqual([...before.ids, summary.id]);
      expect([...new Set(after.folded)].sort()).toEqual([...FOLDED].sort());
      expect(await a.compact()).toEqual({ gates: [] });
    });

    await t.step("what is written after, and a second fold", async () => {
      await play(a, LATER);
      await play(b, LATER);
      expect(await views(a)).toEqual(await views(b));
      expect((await a.readPlanSet(NAME, GATE, D2))?.map((p) => p.target))
        .toEqual(["ap", "us"]);
      const report = await a.compact();
      expect(report.gates.map((g) => [g.gate, g.records])).toEqual([
        [GATE, 8],
      ]);
      expect(report.gates[0].summary).toMatchObject({ records: 23 });
      expect(await views(a)).toEqual(await views(b));
      const all = await history(a, GATE);
      const was = await history(b, GATE);
      expect(all.summaries).toHaveLength(2);
      expect(all.ids.filter((id) => !all.summaries.includes(id)))
        .toEqual(was.ids);
      expect(new Set(all.folded).size).toBe(23 + 1);
    });
  });
}

Deno.test("compact() of the git ledger folds nothing written while it runs, and loses nothing", async () => {
  await using world = await ledgerWorld();
  const other = world.open(await world.clone("other")).ledger;
  const late = Array.from(
    { length: 4 },
    (_, i) => approval(`late${i}`, 50 + i, D0, "zoe"),
  );
  // The other clone writes, and revokes, after the fold read the branch and
  // before it pushes: the push loses, and the fold is built again.
  let builds = 0;
  let armed = false;
  const git: Git = {
    ...world.git,
    async run(args, options) {
      if (args.includes("fast-import") && armed && builds++ === 0) {
        await Promise.all(late.map((record) => other.write(record)));
        await other.write(expired("y9", 57));
      }
      return await world.git.run(args, options);
    },
  };
  const { ledger } = world.open(world.repo.path, { git });
  await play(ledger, HISTORY);
  armed = true;
  const report = await ledger.compact();
  expect(builds).toBeGreaterThan(1);
  // Built again behind y9: what y2 left (y2 itself, q4) goes too, all of it
  // written before the fold began.
  expect(report.gates.map((g) => [g.gate, g.records])).toEqual([
    [G1, 3],
    [GATE, 17],
  ]);
  const tip = ids((await ledger.readGate(NAME, GATE)).records);
  expect([...ids(late), "y9"].filter((id) => !tip.includes(id))).toEqual([]);
  const all = await history(ledger, GATE);
  expect(new Set(all.ids).size).toBe(all.ids.length);
  expect(all.folded.filter((id) => id.startsWith("late") || id === "y9"))
    .toEqual([]);
  // Behind the new revoke, the next fold takes what it ended.
  const again = await ledger.compact();
  expect(again.gates.map((g) => g.gate)).toEqual([GATE]);
  const folded = (await history(ledger, GATE)).folded;
  expect(ids(late).filter((id) => !folded.includes(id))).toEqual([]);
});

Deno.test("claimRuns() refuses an approval a revoke ended, folded or not", async () => {
  await using world = await ledgerWorld();
  const { ledger } = world.open(world.repo.path);
  await play(ledger, HISTORY);
  await ledger.compact();
  for (const approvalId of ["b2", "b1"]) {
    await expect(
      ledger.claimRuns(
        claim(`z-${approvalId}`, 70, approvalId, "d9", [{ ...P0, attempt: 3 }]),
      ),
    ).rejects.toThrow(
      `cannot apply under approval ${approvalId}: gate "${GATE}" was revoked after this job read it; nothing applied`,
    );
  }
});

/** A gate never revoked: two rollouts, each approved and applied in full. */
const NEVER_REVOKED: Step[] = [
  pending("s1", 1, D1),
  approval("e1", 2, D1),
  { claimed: claim("ec1", 3, "e1", "f1", [P2]) },
  outcome("eo1", 4, "e1", "f1", [{ ...P2, outcome: "ok" }]),
  pending("s2", 5, D2),
  approval("e2", 6, D2),
  { claimed: claim("ec2", 7, "e2", "f2", [P1, P3]) },
  outcome("eo2", 8, "e2", "f2", [
    { ...P1, outcome: "ok" },
    { ...P3, outcome: "ok" },
  ]),
];

/** The records of {@linkcode NEVER_REVOKED} and the third rollout, in order. */
const NEVER_REVOKED_RECORDS = [
  ...NEVER_REVOKED.map((step) => "claimed" in step ? step.claimed : step),
  pending("s3", 9, D0),
  approval("e3", 10, D0),
  claim("ec3", 11, "e3", "f3", [P0, P1]),
  outcome("eo3", 12, "e3", "f3", []),
];

for (
  const [kind, twins] of [["git", gitTwins], ["directory", dirTwins]] as const
) {
  Deno.test(`compact({ settle }) of the ${kind} ledger cuts a gate whose every approval was spent, and folds through the cut`, async (t) => {
    await using both = await twins();
    const { a } = both;
    await play(a, NEVER_REVOKED);

    await t.step("a rollout that waits is left alone", async () => {
      // Standing a day past the test's clock.
      const ttl = Math.ceil((Date.now() - at(9)) / 60_000) + 24 * 60;
      await play(a, [pending("s3", 9, D0, ttl)]);
      const report = await a.compact({ settle: true, dryRun: true });
      expect(report.gates).toEqual([]);
    });

    await t.step(
      "once it is approved and applied, the gate is settled",
      async () => {
        await play(a, [
          approval("e3", 10, D0),
          { claimed: claim("ec3", 11, "e3", "f3", [P0, P1]) },
          outcome("eo3", 12, "e3", "f3", [
            { ...P0, outcome: "ok" },
            { ...P1, outcome: "ok" },
          ]),
        ]);
        const before = await both.tipFiles(GATE);
        const report = await a.compact({ settle: true });
        expect(report.gates.map((g) => g.gate)).toEqual([GATE]);
        const cut = report.gates[0].settled!;
        expect(cut).toMatchObject({
          kind: "expired",
          by: "chant-wave",
          approvals: ["e1", "e2", "e3"],
          timestamp: new Date(at(12) + 1).toISOString(),
        });
        // The cut and the summary are all the tip keeps of the gate.
        const tip = await both.tipFiles(GATE);
        expect(tip.length).toBe(2);
        expect(before.length).toBeGreaterThan(8);
        const read = await a.readGate(NAME, GATE);
        expect(read.records.map((r) => r.kind)).toEqual(["expired", "folded"]);
        const all = await history(a, GATE);
        // Every record of the three rollouts (a directory ledger's claim of
        // two plans is two files).
        expect([...new Set(all.folded)]).toEqual(ids(NEVER_REVOKED_RECORDS));
        expect(await a.compact({ settle: true })).toEqual({ gates: [] });
      },
    );

    await t.step(
      "a job that decided under a settled approval claims nothing",
      async () => {
        await expect(
          a.claimRuns(claim("ec9", 19, "e3", "f9", [{ ...P0, attempt: 2 }])),
        ).rejects.toThrow(
          `cannot apply under approval e3: gate "${GATE}" was settled after this job read it (other jobs applied what its approvals covered); nothing applied`,
        );
      },
    );

    await t.step("a fresh approval after it counts, and claims", async () => {
      await play(a, [approval("e4", 20, D0)]);
      const standings = await a.claimRuns(
        claim("ec4", 21, "e4", "f4", [P0]),
      );
      expect(standings.standing(P0).kind).toBe("unsettled");
    });
  });
}

Deno.test("compact({ settle }) of the git ledger does not cut when an approval lands while it runs", async () => {
  await using world = await ledgerWorld();
  const other = world.open(await world.clone("other")).ledger;
  let armed = false;
  const git: Git = {
    ...world.git,
    async run(args, options) {
      if (args.includes("fast-import") && armed) {
        armed = false;
        await other.write(approval("late", 30, D0, "zoe"));
      }
      return await world.git.run(args, options);
    },
  };
  const { ledger } = world.open(world.repo.path, { git });
  await play(ledger, NEVER_REVOKED);
  armed = true;
  const report = await ledger.compact({ settle: true });
  // Built again on the tip with "late": nothing is spent there, nothing cut.
  expect(report.gates).toEqual([]);
  const read = await ledger.readGate(NAME, GATE);
  expect(read.records.filter((r) => r.kind === "expired")).toEqual([]);
  expect(ids(read.records)).toContain("late");
});

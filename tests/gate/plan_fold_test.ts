// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { revokeFloor } from "../../src/gate/revoke_floor.ts";
import {
  type LedgerRecord,
  newRecord,
  type OutcomeJob,
  pendingRecord,
  type PlanPair,
} from "../../src/gate/records.ts";
import type { BaseRule } from "../../src/gate/base_rule.ts";
import {
  foldedFields,
  planFold,
  trustedDecisionHeads,
} from "../../src/gate/plan_fold.ts";
import {
  actionsThrough,
  namesUnendedAction,
} from "../../src/gate/action_floor.ts";
import {
  DIGESTS,
  HEADS,
  ids,
  JOBS,
  RULES,
  SETS,
  view,
} from "../ledger/_fold_view.ts";
import {
  approval,
  at,
  claim,
  D,
  digest,
  expired,
  GATE,
  NAME,
  outcome,
  pending,
} from "../ledger/_records.ts";

const EU = { target: "eu", planDigest: digest("1") };

function waveOutcome(
  id: string,
  minute: number,
  head: string,
  fields: {
    wave?: number;
    job?: OutcomeJob;
    outcome?: "applied" | "failed" | "nothing-to-do";
    baseRule?: BaseRule;
  } = {},
) {
  return newRecord("wave-outcome", {
    name: NAME,
    gate: GATE,
    wave: fields.wave ?? 2,
    head,
    digest: D,
    decisionId: `d-${id}`,
    job: fields.job ?? { kind: "wave" },
    outcome: fields.outcome ?? "applied",
    ...(fields.baseRule ? { baseRule: fields.baseRule } : {}),
  }, { id, now: at(minute) });
}

Deno.test("planFold() folds what no decision reads again", async (t) => {
  await t.step("nothing without a revoke", () => {
    expect(planFold([approval("a1", 1), pending("p1", 2)])).toBeUndefined();
  });
  await t.step(
    "an ended approval with its settled claims, pending facts, the revoke before",
    () => {
      const records = [
        pending("p1", 1),
        approval("a1", 2),
        claim("c1", 3, "a1", "d1", [EU]),
        outcome("o1", 4, "a1", "d1", [{ ...EU, outcome: "ok" }]),
        expired("r1", 5, ["a1"]),
        approval("a2", 6),
        expired("r2", 7, ["a2"]),
        pending("p2", 8),
      ];
      const plan = planFold(records)!;
      expect(ids(plan.fold)).toEqual(["p1", "a1", "c1", "o1", "r1", "a2"]);
      expect(plan.through.id).toBe("r2");
      expect([...plan.named]).toEqual([D]);
      expect([...plan.kept]).toEqual([D]);
    },
  );
  await t.step(
    "through the revoke before the newest: what the newest ended stays",
    () => {
      const records = [
        pending("p1", 1),
        approval("a1", 2),
        claim("c1", 3, "a1", "d1", [EU]),
        outcome("o1", 4, "a1", "d1", [{ ...EU, outcome: "ok" }]),
        expired("r1", 5, ["a1"]),
        approval("a2", 6),
        pending("p2", 7),
        expired("r2", 8, ["a2"]),
      ];
      const plan = planFold(records, undefined, "previous")!;
      expect(ids(plan.fold)).toEqual(["p1", "a1", "c1", "o1"]);
      expect(plan.through.id).toBe("r1");
      // With one revoke, nothing is before the one before it.
      expect(planFold(records.slice(0, 5), undefined, "previous"))
        .toBeUndefined();
    },
  );
  await t.step("a dead claim keeps its approval and all its claims", () => {
    const plan = planFold([
      approval("a1", 1),
      claim("c1", 2, "a1", "d1", [EU]),
      claim("c2", 3, "a1", "d2", [{ target: "us", planDigest: digest("2") }]),
      outcome("o1", 4, "a1", "d1", [{ ...EU, outcome: "failed" }]),
      pending("p1", 5),
      expired("r1", 6),
    ])!;
    expect(ids(plan.fold)).toEqual(["p1"]);
  });
  await t.step(
    "an outcome of another job attempt does not settle a claim",
    () => {
      expect(
        planFold([
          approval("a1", 1),
          claim("c1", 2, "a1", "d1", [EU], "att1"),
          outcome("o1", 3, "a1", "d1", [{ ...EU, outcome: "ok" }], "att2"),
          expired("r1", 4),
        ]),
      ).toBeUndefined();
    },
  );
  await t.step(
    "an approval of an id that appears again after the revoke",
    () => {
      expect(
        ids(
          planFold([
            approval("a1", 1),
            pending("p1", 2),
            expired("r1", 3),
            approval("a1", 4),
          ])!.fold,
        ),
      ).toEqual(["p1"]);
    },
  );
  await t.step("claims after the revoke keep an ended approval", () => {
    expect(
      planFold([
        approval("a1", 1),
        expired("r1", 2),
        claim("c1", 3, "a1", "d1", [EU]),
        outcome("o1", 4, "a1", "d1", [{ ...EU, outcome: "ok" }]),
      ]),
    ).toBeUndefined();
  });
  await t.step(
    "an older revoke that ends an approval sorted after the newest",
    () => {
      const plan = planFold([
        expired("r1", 1, ["a9"]),
        pending("p1", 2),
        expired("r2", 3),
        approval("a9", 4),
      ])!;
      expect(ids(plan.fold)).toEqual(["p1"]);
    },
  );
  await t.step(
    "superseded wave outcomes; the newest per wave, commit and job stays",
    () => {
      const h1 = "1".repeat(40);
      const h2 = "2".repeat(40);
      const plan = planFold([
        waveOutcome("w1", 1, h1, { outcome: "failed" }),
        waveOutcome("w2", 2, h1),
        waveOutcome("w3", 3, h2, { job: { kind: "share", share: 1 } }),
        waveOutcome("w4", 4, h2, { job: { kind: "share", share: 2 } }),
        expired("r1", 5),
        waveOutcome("w5", 6, h2, { job: { kind: "share", share: 2 } }),
      ])!;
      expect(ids(plan.fold)).toEqual(["w1", "w4"]);
    },
  );
  await t.step(
    "one record per commit decided under a trusted base stays",
    () => {
      const h1 = "1".repeat(40);
      const plan = planFold([
        waveOutcome("w1", 1, h1, { outcome: "failed", baseRule: "push" }),
        waveOutcome("w2", 2, h1, { baseRule: "chain" }),
        pending("p1", 3),
        expired("r1", 4),
      ])!;
      expect(ids(plan.fold)).toEqual(["p1"]);
    },
  );
  await t.step(
    "the record that first names a trusted commit, by time, stays",
    () => {
      const h = "1".repeat(40);
      const g = "2".repeat(40);
      const decided = (id: string, minute: number, head: string) => ({
        ...pending(id, minute),
        head,
        baseRule: "push" as const,
      });
      // Commit h decided at minutes 1 and 3, g at 2 (kept: not superseded),
      // written out of time order: w2 is in the ledger after p3.
      const records = [
        decided("p1", 1, h),
        decided("p3", 3, h),
        waveOutcome("w2", 2, g, { baseRule: "push" }),
        expired("r1", 4),
      ];
      const plan = planFold(records)!;
      expect(ids(plan.fold)).toEqual(["p3"]);
      const order = (list: readonly LedgerRecord[]) => [
        ...trustedDecisionHeads(
          [...list].sort((a, b) =>
            Date.parse(a.timestamp) - Date.parse(b.timestamp)
          ),
        ),
      ];
      const gone = new Set(plan.fold);
      expect(order(records.filter((r) => !gone.has(r)))).toEqual([h, g]);
      expect(order(records)).toEqual([h, g]);
    },
  );
  await t.step(
    "a click-path approval stays unless the newest revoke's floor ended its action",
    () => {
      const via = (n: number) => ({
        via: `https://github.com/o/r/actions/runs/${n}`,
      });
      const job = { via: "https://gitlab.example/g/p/-/jobs/30" };
      const records = [
        { ...approval("a1", 1), ...via(9) },
        { ...approval("a2", 2), ...via(12) },
        { ...approval("a3", 3), ...job },
        approval("a4", 4),
        pending("p1", 5),
      ];
      const revoke = (through?: { run?: string; job?: string }) => ({
        ...expired("r1", 6, ["a1", "a2", "a3", "a4"]),
        ...(through ? { actionsThrough: through } : {}),
      });
      // A revoke that ended no action (written before revokes named them)
      // vouches for none: every click-path approval stays.
      expect(ids(planFold([...records, revoke()])!.fold)).toEqual(["a4", "p1"]);
      // Runs up to 10 ended: run 9's approval folds, run 12's and job 30's stay.
      expect(ids(planFold([...records, revoke({ run: "10" })])!.fold))
        .toEqual(["a1", "a4", "p1"]);
      expect(
        ids(planFold([...records, revoke({ run: "12", job: "30" })])!.fold),
      ).toEqual(["a1", "a2", "a3", "a4", "p1"]);
      // The newest revoke itself never folds, nor an earlier one that ended
      // an action it does not (run 99): every revoke's floor counts.
      const older = { ...expired("r0", 0), actionsThrough: { run: "99" } };
      const plan = planFold([older, ...records, revoke({ run: "12" })])!;
      expect(ids(plan.fold)).toEqual(["a1", "a2", "a4", "p1"]);
      expect(plan.through.id).toBe("r1");
      const ended = { ...expired("r0", 0), actionsThrough: { run: "11" } };
      expect(ids(planFold([ended, ...records, revoke({ run: "12" })])!.fold))
        .toEqual(["r0", "a1", "a2", "a4", "p1"]);
    },
  );
  await t.step("only what may move; earlier summaries go with the rest", () => {
    const summary = newRecord("folded", {
      ...foldedFields(
        planFold([approval("a0", 0), expired("r0", 0)])!,
        2,
        "c".repeat(40),
      ),
    }, { id: "s1", now: at(0) });
    const records = [
      pending("p1", 1),
      pending("p2", 2),
      summary,
      expired("r1", 3),
    ];
    const plan = planFold(records, (record) => record.id !== "p2")!;
    expect(ids(plan.fold)).toEqual(["p1", "s1"]);
    const fields = foldedFields(plan, 1, "archive");
    expect(fields).toEqual({
      name: NAME,
      gate: GATE,
      through: "r1",
      records: 2,
      counts: { approval: 1, pending: 1 },
      sets: 3,
      approvals: ["a0"],
      archive: "archive",
    });
  });
});

// A random gate history, folded, must decide everything as before, whatever
// is written after the fold.

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes random records, as jobs, approvers and revokes would. */
function history(next: () => number) {
  const pick = <T>(list: readonly T[]) =>
    list[Math.floor(next() * list.length)];
  let n = 0;
  return (
    records: LedgerRecord[],
    count: number,
    digests: Set<string> | undefined,
    prefix: string,
    earlier: readonly LedgerRecord[] = [],
  ) => {
    for (let i = 0; i < count; i++) {
      const id = `${prefix}${n++}`;
      const minute = records.length;
      const approvals = records.filter((r) => r.kind === "approval");
      const claims = records.filter((r) => r.kind === "claim");
      const roll = next();
      const d = pick(DIGESTS);
      if (roll < 0.2) {
        const p = pending(id, minute, d, 10 + Math.floor(next() * 200));
        const rule = pick(RULES);
        records.push({
          ...p,
          head: pick(HEADS),
          ...(rule ? { baseRule: rule } : {}),
        });
        digests?.add(d);
      } else if (roll < 0.35) {
        const allowed = digests ? [...digests] : DIGESTS;
        if (allowed.length) {
          // Half of them through an approve run or job, of a few ids (so a
          // replay names one again).
          const click = next() < 0.5
            ? { via: pick(VIAS)(1 + Math.floor(next() * 6)) }
            : {};
          records.push({
            ...approval(id, minute, pick(allowed), pick(["ann", "bob"])),
            ...click,
          });
        }
      } else if (roll < 0.55 && approvals.length) {
        const a = pick(approvals.slice(-3));
        const set =
          SETS[DIGESTS.indexOf((a as { planDigest: string }).planDigest)];
        records.push(claim(id, minute, a.id, pick(["d1", "d2"]), [{
          ...pick(set),
          attempt: 1 + Math.floor(next() * 2),
        }], pick(["x1", "x2"])));
      } else if (roll < 0.72 && claims.length) {
        const c = pick(claims.slice(-4));
        if (c.kind !== "claim") continue;
        records.push(outcome(
          id,
          minute,
          c.approvalId,
          next() < 0.9 ? c.decisionId : "d9",
          c.runs.map((run) => ({
            ...run,
            outcome: next() < 0.7 ? "ok" as const : "failed" as const,
          })),
          next() < 0.9 ? c.attemptId : "x9",
        ));
      } else if (roll < 0.8) {
        const since = records.findLastIndex((r) => r.kind === "expired");
        const ends = next() < 0.7
          ? records.slice(since + 1).filter((r) => r.kind === "approval")
            .map((r) => r.id)
          : [];
        // As revoke ends forge actions (most of the time: an older revoke
        // names none), carrying on the floor of the revoke before.
        const all = [...earlier, ...records];
        const last = all.findLast((r) => r.kind === "expired");
        const floor = next() < 0.8
          ? actionsThrough(
            all.slice(all.indexOf(last!) + 1).filter((r) =>
              r.kind === "approval"
            ),
            last?.kind === "expired" ? last.actionsThrough : undefined,
          )
          : undefined;
        records.push({
          ...expired(id, minute, ends),
          ...(floor ? { actionsThrough: floor } : {}),
        });
      } else if (roll < 0.95) {
        records.push(waveOutcome(id, minute, pick(HEADS), {
          wave: 1 + Math.floor(next() * 2),
          job: pick(JOBS),
          outcome: pick(["applied", "failed", "nothing-to-do"] as const),
          ...(pick(RULES) ? { baseRule: pick(RULES)! } : {}),
        }));
      } else {
        records.push(newRecord("out-of-order", {
          name: NAME,
          gate: GATE,
          wave: 2,
          head: pick(HEADS),
          by: "eve",
          reason: "hotfix",
        }, { id, now: at(minute) }));
      }
    }
  };
}

/**
 * The plan sets a ledger holds: those of the digests its records wait for (a
 * job writes the set with its pending fact), and `also`.
 */
/** The approve runs and jobs a click-path approval names. */
const VIAS = [
  (n: number) => `https://github.com/o/r/actions/runs/${n}`,
  (n: number) => `https://gitlab.example/g/p/-/jobs/${n}`,
];

/** The forge actions approvals name above the newest revoke's floor. */
function unended(records: readonly LedgerRecord[]): string[] {
  // Every revoke's floor counts (`revoke_floor.ts`).
  const floor = revokeFloor(records).actions;
  return [
    ...new Set(
      records.flatMap((r) =>
        r.kind === "approval" && namesUnendedAction(r, floor) ? [r.via!] : []
      ),
    ),
  ].sort();
}

function setsOf(
  records: readonly LedgerRecord[],
  also: ReadonlySet<string> = new Set(),
) {
  const sets = new Map<string, PlanPair[]>();
  const digests = new Set(also);
  for (const record of records) {
    if (record.kind === "pending") digests.add(record.planDigest);
  }
  for (const d of digests) sets.set(d, SETS[DIGESTS.indexOf(d)]);
  return sets;
}

Deno.test("planFold() changes no decision, whatever is written after the fold", () => {
  let folded = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const next = random(seed);
    const write = history(next);
    const before: LedgerRecord[] = [];
    write(before, 20 + Math.floor(next() * 60), undefined, "r");
    const plan = planFold(before);
    if (plan === undefined) continue;
    folded += plan.fold.length;
    const gone = new Set(plan.fold);
    const summary = newRecord("folded", foldedFields(plan, 0, "x"), {
      id: "summary",
      now: at(before.length),
    });
    const after = [...before.filter((r) => !gone.has(r)), summary];
    const lost = new Set([...plan.named].filter((d) => !plan.kept.has(d)));
    const stays = new Set(
      before.flatMap((r) =>
        r.kind === "pending" && !lost.has(r.planDigest) ? [r.planDigest] : []
      ),
    );
    for (let round = 0; round < 3; round++) {
      const later: LedgerRecord[] = [];
      const waited = new Set<string>();
      write(later, Math.floor(next() * 30), waited, `s${round}-`, before);
      const was = [...before, ...later];
      const is = [...after, ...later];
      const context = `seed ${seed}, round ${round}`;
      const now = at(was.length + 5);
      expect({ context, view: view(is, setsOf(is, stays), now) })
        .toEqual({ context, view: view(was, setsOf(was), now) });
      // Until a later revoke sets a new floor, every forge action an approval
      // names above the floor is still named at the tip.
      if (!later.some((r) => r.kind === "expired")) {
        expect({ context, unended: unended(is) })
          .toEqual({ context, unended: unended(was) });
      }
    }
  }
  expect(folded).toBeGreaterThan(2000);
});

Deno.test("planFold() keeps the records of the 100 newest decided commits only", () => {
  const head = (n: number) => n.toString(16).padStart(40, "0");
  const rollouts = Array.from({ length: 101 }, (_, n) => [
    { ...pending(`p${n}`, 2 * n), head: head(n), baseRule: "push" as const },
    waveOutcome(`w${n}`, 2 * n + 1, head(n), { baseRule: "push" }),
  ]).flat();
  const plan = planFold([...rollouts, expired("x1", 300)])!;
  // The oldest commit's trusted decision and wave outcome fold; the other
  // 100 keep both (a pending fact naming a commit first is kept).
  expect(ids(plan.fold).sort()).toEqual(["p0", "w0"]);
  expect(
    trustedDecisionHeads(
      [...rollouts, expired("x1", 300)].filter((r) => !plan.fold.includes(r)),
    ).size,
  ).toBe(100);
});

const H1 = "1".repeat(40);
const H2 = "2".repeat(40);
const H3 = "3".repeat(40);
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

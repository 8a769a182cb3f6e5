// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { setDigest } from "../../src/digest/set_digest.ts";
import {
  decideGate,
  newestPending,
  newestPendingDigest,
  type PlanSets,
  standingPending,
} from "../../src/gate/decide_gate.ts";
import {
  type GateMember,
  type LedgerRecord,
  newRecord,
  type PlanPair,
} from "../../src/gate/records.ts";
import type { ApprovalVerdict, GateRules } from "../../src/gate/gate_tally.ts";
import {
  approval,
  at,
  claim,
  D,
  D_OLD,
  digest,
  expired,
  GATE,
  outcome,
  pending,
  sealed,
} from "../ledger/_records.ts";
import { countingApprovals } from "../../src/gate/revoke_floor.ts";

const NOW = at(30);

const p = (c: string) => digest(c);
const EU: PlanPair = { target: "eu", planDigest: p("1") };
const US: PlanPair = { target: "us", planDigest: p("2") };
const PLANS = [EU, US];
const SET = setDigest(PLANS);
const SETS: PlanSets = new Map([[SET, PLANS]]);

function decide(
  records: LedgerRecord[],
  members: GateMember[] = PLANS,
  sets: PlanSets = SETS,
) {
  const result = decideGate(records, sets, {
    gate: GATE,
    digest: setDigest(members),
    members,
    now: NOW,
  });
  return result.status === "approved"
    ? { status: result.status, approval: result.approval.id }
    : result;
}

Deno.test("decideGate() counts approvals as SPEC.md §5.3 says", async (t) => {
  const a1 = approval("a1", 1, D);
  await t.step("no records: waiting, no approval", () => {
    expect(decide([], [{ target: "x", planDigest: p("9") }])).toEqual({
      status: "waiting",
      reasons: [
        `gate "${GATE}" has no approval for ${
          setDigest([{ target: "x", planDigest: p("9") }])
        }`,
      ],
    });
  });
  await t.step(
    "an approval of a digest with no plan set covers exactly it",
    () => {
      const whole = approval("w1", 1, SET);
      expect(decide([whole], PLANS, new Map())).toEqual({
        status: "approved",
        approval: "w1",
      });
    },
  );
  await t.step("an approval of another digest: waiting, says which", () => {
    expect(decide([approval("o1", 2, D_OLD, "bob")])).toEqual({
      status: "waiting",
      reasons: [
        `gate "${GATE}" is approved for ${D_OLD} by bob, but this plan is ${SET}`,
      ],
    });
  });
  await t.step("revoked: an expired record newer than the approval", () => {
    const approved = approval("a1", 1, SET);
    expect(decide([approved, expired("e1", 3)])).toEqual({
      status: "waiting",
      reasons: [
        `the approval of ${SET} by ann was revoked at 2026-11-30T09:03:00.000Z; approve again`,
      ],
    });
  });
  await t.step(
    "settled by ledger compact: the reason says the approval was spent",
    () => {
      const settle = {
        ...expired("e1", 3),
        by: "chant-wave",
        note: "settled: every approval before it was spent",
      };
      expect(decide([approval("a1", 1, SET), settle])).toEqual({
        status: "waiting",
        reasons: [
          `the approval of ${SET} by ann was spent: its plans applied, and the gate was settled at 2026-11-30T09:03:00.000Z; approve again`,
        ],
      });
      // Folded since: only the revoke is left.
      expect(decide([settle])).toEqual({
        status: "waiting",
        reasons: [
          `gate "${GATE}" has no approval for ${SET}`,
          "the gate was settled at 2026-11-30T09:03:00.000Z: every approval before it was spent (its plans applied)",
        ],
      });
    },
  );
  await t.step("approval, revoke, new approval: the new one counts", () => {
    expect(decide([a1, expired("e1", 3), approval("a2", 5, SET, "bob")]))
      .toEqual({ status: "approved", approval: "a2" });
  });
  await t.step(
    "an approval a revoke names never counts, whatever its time",
    () => {
      const ahead = approval("a9", 20, SET);
      expect(decide([expired("e1", 3, ["a9"]), ahead]).status).toBe("waiting");
    },
  );
  await t.step("the newest covering approval wins", () => {
    expect(
      decide([approval("a1", 1, SET), approval("a2", 5, SET, "bob")]),
    ).toEqual({ status: "approved", approval: "a2" });
  });
});

Deno.test("countingApprovals() ends a sealed approval signed before the newest revoke, wherever it sits", () => {
  const records = [
    sealed(approval("a1", 1, SET)),
    expired("e1", 2),
    sealed(approval("a2", 1, SET)),
    approval("a3", 1, SET),
    sealed(approval("a4", 2, SET)),
    sealed(approval("a5", 3, SET)),
  ];
  // An unsealed approval's time is not what made it: its place is.
  expect(countingApprovals(records).map((a) => a.id)).toEqual(["a5", "a3"]);
});

Deno.test("countingApprovals() judges seals by the latest revoke, not the newest by place", () => {
  // e0 reached the ledger last but says it was written at minute 0: the
  // change's code may write a revoke, and only e1's time is a real floor.
  const records = [
    sealed(approval("a1", 1, SET)),
    expired("e1", 4),
    expired("e0", 0),
    sealed(approval("a2", 3, SET)),
    sealed(approval("a3", 5, SET)),
  ];
  expect(countingApprovals(records).map((a) => a.id)).toEqual(["a3"]);
});

Deno.test("decideGate() lets an approval cover plans, not a digest (§10)", async (t) => {
  const a = approval("a1", 1, SET);
  await t.step("a retried wave whose applied run now plans empty", () => {
    const members = [{ target: "eu", planDigest: p("0"), empty: true }, US];
    const records = [
      a,
      claim("c1", 2, "a1", "dec-1", PLANS),
      outcome("r1", 3, "a1", "dec-1", [{ ...EU, outcome: "ok" }, {
        ...US,
        outcome: "failed",
      }]),
    ];
    expect(decide(records, members)).toEqual({
      status: "approved",
      approval: "a1",
    });
  });
  await t.step("a plan applied under it needs nothing more", () => {
    const records = [
      a,
      claim("c1", 2, "a1", "dec-1", PLANS),
      outcome(
        "r1",
        3,
        "a1",
        "dec-1",
        PLANS.map((x) => ({ ...x, outcome: "ok" as const })),
      ),
    ];
    expect(decide(records).status).toBe("approved");
  });
  await t.step("a plan that moved is not covered, and is named", () => {
    const moved = { target: "us", planDigest: p("9") };
    const got = decide([a], [EU, moved]);
    expect(got).toEqual({
      status: "waiting",
      reasons: [
        `gate "${GATE}" is approved for ${SET} by ann, but this plan is ${
          setDigest([EU, moved])
        }`,
        `us: its plan moved since the approval of ${SET} by ann: approved ${
          p("2")
        }, planned now ${p("9")}`,
      ],
    });
  });
  await t.step("a target the approval never saw is not covered", () => {
    const extra = { target: "ap", planDigest: p("3") };
    const got = decide([a], [extra, EU, US]);
    expect(got.status).toBe("waiting");
    expect((got as { reasons: string[] }).reasons[1]).toBe(
      `ap: the approval of ${SET} by ann does not cover it`,
    );
  });
  await t.step("empty members need no approval at all", () => {
    const members = [{ ...EU, empty: true }, {
      ...US,
      planDigest: p("7"),
      empty: true,
    }];
    expect(decide([a], members).status).toBe("approved");
  });
});

Deno.test("decideGate() names no approval of an earlier rollout as a plan that moved", async (t) => {
  const alice = approval("a1", 1, SET, "alice");
  const bob = approval("a2", 2, SET, "bob");
  const applied = [
    claim("c1", 3, "a2", "dec-1", PLANS),
    outcome("r1", 4, "a2", "dec-1", [
      { ...EU, outcome: "ok" },
      { ...US, outcome: "ok" },
    ]),
  ];
  const next = [
    { target: "eu", planDigest: p("5") },
    { target: "us", planDigest: p("6") },
  ];
  const none = `gate "${GATE}" has no approval for ${setDigest(next)}`;
  await t.step(
    "two approvers, the plans claimed under the second: neither is named",
    () => {
      expect(decide([alice, bob, ...applied], next)).toEqual({
        status: "waiting",
        reasons: [none],
      });
    },
  );
  await t.step(
    "targets that applied newer plans under another approval: spent",
    () => {
      const newer = [
        { target: "eu", planDigest: p("3") },
        { target: "us", planDigest: p("4") },
      ];
      const carol = approval("a3", 5, setDigest(newer), "carol");
      const records = [
        alice,
        carol,
        claim("c2", 6, "a3", "dec-2", newer),
        outcome(
          "r2",
          7,
          "a3",
          "dec-2",
          newer.map((x) => ({
            ...x,
            outcome: "ok" as const,
          })),
        ),
      ];
      const sets = new Map([...SETS, [setDigest(newer), newer]]);
      expect(decide(records, next, sets)).toEqual({
        status: "waiting",
        reasons: [none],
      });
    },
  );
  await t.step(
    "a plan that failed and never applied: that approval still bears, and is named",
    () => {
      const failed = [
        claim("c1", 3, "a2", "dec-1", PLANS),
        outcome("r1", 4, "a2", "dec-1", [
          { ...EU, outcome: "ok" },
          { ...US, outcome: "failed" },
        ]),
      ];
      const got = decide([alice, bob, ...failed], next);
      expect((got as { reasons: string[] }).reasons[0]).toBe(
        `gate "${GATE}" is approved for ${SET} by bob, but this plan is ${
          setDigest(next)
        }`,
      );
    },
  );
});

Deno.test("decideGate() with plans of live state: a plan that applied and is planned again moved back (§17)", async (t) => {
  const a = approval("a1", 1, SET);
  const applied = [
    a,
    claim("c1", 2, "a1", "dec-1", PLANS),
    outcome(
      "r1",
      3,
      "a1",
      "dec-1",
      PLANS.map((x) => ({ ...x, outcome: "ok" as const })),
    ),
  ];
  const live = (records: LedgerRecord[]) =>
    decideGate(records, SETS, {
      gate: GATE,
      digest: SET,
      members: PLANS,
      now: NOW,
      liveState: true,
    });
  await t.step("the approval it applied under no longer covers it", () => {
    const got = live(applied);
    expect(got.status).toBe("waiting");
    expect(got.status === "waiting" && got.reasons.slice(0, 2)).toEqual(
      PLANS.map((plan) =>
        `${plan.target}: moved back since it applied this plan (${plan.planDigest}) ` +
        `under the approval by ann at ${
          new Date(at(1)).toISOString()
        }; applying it again needs a new approval`
      ),
    );
  });
  await t.step("a new approval of the same plans covers it, once", () => {
    const got = live([...applied, approval("a2", 4, SET)]);
    expect(got.status === "approved" && got.approval.id).toBe("a2");
  });
  await t.step("plans a command may repeat stay applied, as ever", () => {
    expect(decide(applied).status).toBe("approved");
  });
});

Deno.test("decideGate() does not reorder its records", () => {
  const records = [approval("a2", 5, SET), approval("a1", 1, SET)];
  const copy = [...records];
  decide(records);
  expect(records).toEqual(copy);
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
      name: "ignores approvals and claims",
      records: [
        pending("w1", 10, D2),
        approval("a2", 11, D2),
        claim("c1", 12, "a2", "dec-1", [EU]),
      ],
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

/** Rules where each approval's principal is given, and some are refused. */
function rulesOf(
  required: number,
  principals: Record<string, string>,
  refused: Record<string, string> = {},
): GateRules {
  const verdicts = new Map<string, ApprovalVerdict>();
  for (const [id, principal] of Object.entries(principals)) {
    verdicts.set(
      id,
      refused[id] === undefined
        ? { principal, display: principal, counts: true }
        : { principal, display: principal, counts: false, why: refused[id] },
    );
  }
  return { required, verdicts };
}

function decideUnder(
  records: LedgerRecord[],
  rules: GateRules,
  members: GateMember[] = PLANS,
) {
  return decideGate(records, SETS, {
    gate: GATE,
    digest: setDigest(members),
    members,
    now: NOW,
    rules,
  });
}

Deno.test("decideGate() counts distinct principals under approver rules (§12.1)", async (t) => {
  await t.step("one of two: waiting, with the tally", () => {
    const result = decideUnder(
      [approval("a1", 1, SET)],
      rulesOf(2, { a1: "ann" }),
    );
    expect(result).toMatchObject({
      status: "waiting",
      reasons: [`1 of 2 approvals of ${SET}: ann`],
      tally: { required: 2, counted: ["ann"], refused: [] },
    });
  });
  await t.step("the same principal twice is still one", () => {
    expect(
      decideUnder(
        [approval("a1", 1, SET), approval("a2", 2, SET)],
        rulesOf(2, { a1: "ann", a2: "ann" }),
      ).status,
    ).toBe("waiting");
  });
  await t.step(
    "two principals: approved under the newest, named in ledger order",
    () => {
      const result = decideUnder(
        [approval("a1", 1, SET), approval("a2", 2, SET)],
        rulesOf(2, { a1: "ann", a2: "bob" }),
      );
      expect(result).toMatchObject({
        status: "approved",
        approval: { id: "a2" },
        approvedBy: "ann, bob",
        tally: { counted: ["ann", "bob"] },
      });
    },
  );
  await t.step("one required: every counted approver is named", () => {
    const result = decideUnder(
      [approval("a1", 1, SET), approval("a2", 2, SET)],
      rulesOf(1, { a1: "ann", a2: "bob" }),
    );
    expect(result).toMatchObject({
      approval: { id: "a2" },
      approvedBy: "ann, bob",
    });
  });
  await t.step("a refused approval is named with its reason", () => {
    const result = decideUnder(
      [approval("a1", 1, SET), approval("a2", 2, SET)],
      rulesOf(2, { a1: "ann", a2: "eve" }, { a2: "the change's author" }),
    );
    expect(result).toMatchObject({
      status: "waiting",
      reasons: [
        `1 of 2 approvals of ${SET}: ann; not counted: eve (the change's author)`,
      ],
    });
  });
  await t.step(
    "a refused newest approval is passed over for an older one",
    () => {
      const result = decideUnder(
        [approval("a1", 1, SET), approval("a2", 2, SET)],
        rulesOf(1, { a1: "ann", a2: "eve" }, { a2: "not signed" }),
      );
      expect(result).toMatchObject({
        status: "approved",
        approval: { id: "a1" },
      });
    },
  );
  await t.step(
    "an approval of other plans does not count toward the tally",
    () => {
      const moved = [EU, { target: "us", planDigest: p("9") }];
      const result = decideUnder(
        [approval("a1", 1, SET), approval("a2", 2, setDigest(moved))],
        rulesOf(2, { a1: "ann", a2: "bob" }),
        moved,
      );
      expect(result.status).toBe("waiting");
    },
  );
  await t.step(
    "plans applied under the lead need nothing more from anyone",
    () => {
      const records = [
        approval("a1", 1, SET),
        approval("a2", 2, SET),
        claim("c1", 3, "a2", "dec-1", [EU, US]),
        outcome("o1", 4, "a2", "dec-1", [
          { ...EU, outcome: "ok" },
          { ...US, outcome: "failed" },
        ]),
      ];
      const result = decideUnder(records, rulesOf(2, { a1: "ann", a2: "bob" }));
      expect(result).toMatchObject({
        status: "approved",
        approval: { id: "a2" },
      });
      if (result.status !== "approved") return;
      expect(result.claims.standing(US)).toEqual({
        kind: "failed",
        attempt: 2,
      });
    },
  );
  await t.step("a revoke ends every approval of the tally", () => {
    const result = decideUnder(
      [approval("a1", 1, SET), approval("a2", 2, SET), expired("e1", 3)],
      rulesOf(2, { a1: "ann", a2: "bob" }),
    );
    expect(result.status).toBe("waiting");
  });
});

Deno.test("countingApprovals() does not count an approval a folded summary names", () => {
  const summary = newRecord("folded", {
    name: "tf",
    gate: GATE,
    through: "r0",
    records: 1,
    counts: { approval: 1 },
    sets: 0,
    approvals: ["a1"],
    archive: "c".repeat(40),
  }, { id: "s1", now: at(3) });
  const records = [expired("r0", 0), approval("a1", 1), approval("a2", 2)];
  expect(countingApprovals(records).map((r) => r.id)).toEqual(["a2", "a1"]);
  expect(countingApprovals([...records, summary]).map((r) => r.id)).toEqual([
    "a2",
  ]);
});

Deno.test("decideGate() counts only approvals not used for a plan before (§12.1)", async (t) => {
  // us applied and now plans empty, as a real tool's plan does.
  const AFTER: GateMember[] = [EU, { ...US, empty: true }];
  const two = rulesOf(2, { a1: "ann", a2: "bob", a3: "carol", a4: "dave" });
  // ann and bob approved; a job claimed both plans under bob's approval, us
  // applied and the runner died applying eu.
  const died = [
    approval("a1", 1, SET),
    approval("a2", 2, SET),
    claim("c1", 3, "a2", "dec-1", [EU, US]),
    outcome("o1", 4, "a2", "dec-1", [{ ...US, outcome: "ok" }]),
  ];
  await t.step(
    "one fresh approval after a dead claim under required: 2 is 1 of 2",
    () => {
      const result = decideUnder(
        [...died, approval("a3", 5, SET)],
        two,
        AFTER,
      );
      // The approval the claim was made under still stands, so its job says
      // the plan is claimed with no outcome, and how far fresh approvals are.
      expect(result).toMatchObject({
        status: "approved",
        approval: { id: "a2" },
        stuck: {
          required: 2,
          counted: ["carol"],
          refused: [
            { display: "ann", why: "used for eu before" },
            { display: "bob", why: "used for eu before" },
          ],
        },
      });
      if (result.status !== "approved") return;
      expect(result.claims.standing(EU).kind).toBe("unsettled");
    },
  );
  await t.step("two fresh approvals: approved under the newest", () => {
    const result = decideUnder(
      [...died, approval("a3", 5, SET), approval("a4", 6, SET)],
      two,
      AFTER,
    );
    expect(result).toMatchObject({
      status: "approved",
      approval: { id: "a4" },
      approvedBy: "carol, dave",
    });
    if (result.status !== "approved") return;
    expect(result.claims.standing(EU)).toEqual({ kind: "left", attempt: 1 });
  });
  await t.step("a failed attempt uses no approval", () => {
    const result = decideUnder([
      approval("a1", 1, SET),
      approval("a2", 2, SET),
      claim("c1", 3, "a2", "dec-1", [EU, US]),
      outcome("o1", 4, "a2", "dec-1", [
        { ...EU, outcome: "failed" },
        { ...US, outcome: "ok" },
      ]),
    ], two);
    expect(result).toMatchObject({
      status: "approved",
      approval: { id: "a2" },
      approvedBy: "ann, bob",
    });
    expect(result).not.toHaveProperty("stuck");
  });
  await t.step(
    "with the claim's approval no longer counting, the fresh tally is what waits",
    () => {
      const result = decideUnder(
        [...died, approval("a3", 5, SET)],
        rulesOf(2, { a1: "ann", a2: "bob", a3: "carol" }, {
          a2: "not signed",
        }),
        AFTER,
      );
      expect(result).toMatchObject({
        status: "waiting",
        reasons: [
          `1 of 2 approvals of ${
            setDigest(AFTER)
          }: carol; not counted: bob (not signed), ann (used for eu before)`,
        ],
        tally: { counted: ["carol"] },
      });
    },
  );
  await t.step("the same person approving again is fresh", () => {
    const result = decideUnder(
      [...died, approval("a3", 5, SET)],
      rulesOf(1, { a1: "ann", a2: "bob", a3: "bob" }),
      AFTER,
    );
    expect(result).toMatchObject({
      status: "approved",
      approval: { id: "a3" },
      approvedBy: "bob",
    });
  });
});

Deno.test("decideGate() never lets an approval cover a plan its set recorded as changing nothing", () => {
  const a1 = approval("a1", 1, SET);
  // Approved while us planned nothing; the same digests now say us changes.
  const sets: PlanSets = new Map([[SET, [EU, { ...US, empty: true }]]]);
  const now = decide([a1], [EU, US], sets);
  expect(now.status).toBe("waiting");
  expect(decide([a1], [EU, { ...US, empty: true }], sets)).toEqual({
    status: "approved",
    approval: "a1",
  });
});

Deno.test("decideGate() never counts an approval given for another wave at this gate", () => {
  const staging = { ...pending("p1", 1, SET), wave: "staging" };
  const a1 = approval("a1", 2, SET);
  const judged = (wave: string) =>
    decideGate([staging, a1], SETS, {
      gate: GATE,
      digest: SET,
      members: PLANS,
      now: NOW,
      wave,
    }).status;
  expect(judged("staging")).toBe("approved");
  expect(judged("prod")).toBe("waiting");
});

Deno.test("decideGate() during a freeze: only an approval given with --during-freeze lets the plans through", async (t) => {
  const freeze = {
    reason: "a freeze window holds until 18:00 UTC: fri 16:00-18:00 UTC",
  };
  const frozen = (records: LedgerRecord[], rules?: GateRules) =>
    decideGate(records, SETS, {
      gate: GATE,
      digest: SET,
      members: PLANS,
      now: NOW,
      freeze,
      ...(rules ? { rules } : {}),
    });
  const ordinary = approval("a1", 1, SET);
  const during = { ...approval("a2", 2, SET), duringFreeze: true as const };
  await t.step("an ordinary approval waits, the freeze named first", () => {
    const result = frozen([ordinary]);
    expect(result.status === "waiting" && result.reasons).toEqual([
      freeze.reason,
      "ann approved these plans, but not with --during-freeze",
    ]);
  });
  await t.step("one given with --during-freeze goes", () => {
    const result = frozen([ordinary, during]);
    expect(result.status).toBe("approved");
  });
  await t.step(
    "on a forge gate the judge lets only a sealed one through",
    () => {
      const verdict = (passesFreeze: boolean): ApprovalVerdict => ({
        principal: "ann",
        display: "ann",
        counts: true,
        ...(passesFreeze ? { passesFreeze } : {}),
      });
      const unsealed: GateRules = {
        required: 1,
        verdicts: new Map([[during.id, verdict(false)]]),
      };
      expect(frozen([during], unsealed).status).toBe("waiting");
      const sealedOne: GateRules = {
        required: 1,
        verdicts: new Map([[during.id, verdict(true)]]),
      };
      expect(frozen([during], sealedOne).status).toBe("approved");
    },
  );
  await t.step(
    "plans that all applied under an approval apply nothing new: no wait",
    () => {
      const records = [
        ordinary,
        claim("c1", 3, "a1", "d1", PLANS),
        outcome(
          "o1",
          4,
          "a1",
          "d1",
          PLANS.map((p) => ({ ...p, outcome: "ok" as const })),
        ),
      ];
      expect(frozen(records).status).toBe("approved");
    },
  );
});

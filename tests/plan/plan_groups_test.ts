// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  driftNote,
  groupLabel,
  groupPlans,
  type ShownPlan,
} from "../../src/plan/plan_groups.ts";

const d = (c: string) => `sha256:${c.repeat(64)}`;
const plan = (target: string, c: string, more: Partial<ShownPlan> = {}) => ({
  target,
  planDigest: d(c),
  summary: `plan ${c}`,
  ...more,
});

Deno.test("groupPlans() puts runs of one identical plan together", async (t) => {
  await t.step(
    "every plan different: one group each, in order, none drifted",
    () => {
      const groups = groupPlans([
        plan("a", "1"),
        plan("b", "2"),
        plan("c", "3"),
      ]);
      expect(groups.map((g) => g.targets)).toEqual([["a"], ["b"], ["c"]]);
      expect(groups.some((g) => g.drifted)).toBe(false);
    },
  );
  await t.step(
    "most of the wave shares one plan: it comes first, the others drifted from it",
    () => {
      const groups = groupPlans([
        plan("a", "2"),
        plan("b", "1"),
        plan("c", "1"),
        plan("d", "1"),
        plan("e", "3"),
      ]);
      expect(groups.map((g) => [g.targets, g.drifted])).toEqual([
        [["b", "c", "d"], undefined],
        [["a"], { from: 3 }],
        [["e"], { from: 3 }],
      ]);
    },
  );
  await t.step("no plan shared by more than half: nothing is drifted", () => {
    const groups = groupPlans([
      plan("a", "1"),
      plan("b", "1"),
      plan("c", "2"),
      plan("d", "2"),
    ]);
    expect(groups.map((g) => [g.targets, g.drifted])).toEqual([
      [["a", "b"], undefined],
      [["c", "d"], undefined],
    ]);
  });
  await t.step("two runs are never drifted from each other", () => {
    expect(groupPlans([plan("a", "1"), plan("b", "2")]).some((g) => g.drifted))
      .toBe(false);
  });
  await t.step("one digest with other flags or summary is shown apart", () => {
    const groups = groupPlans([
      plan("a", "1"),
      plan("b", "1", { destructive: true }),
      plan("c", "1", { summary: "other" }),
    ]);
    expect(groups.map((g) => g.targets)).toEqual([["a"], ["b"], ["c"]]);
  });
  await t.step("the group's plan is its first run's", () => {
    const [group] = groupPlans([plan("a", "1"), plan("b", "1")]);
    expect(group.plan.target).toBe("a");
  });
});

Deno.test("groupLabel() names one target, or how many runs and the first three", () => {
  expect(groupLabel({ targets: ["eu-01"] })).toBe("eu-01");
  expect(groupLabel({ targets: ["a", "b"] })).toBe("2 runs (a, b)");
  expect(groupLabel({ targets: ["a", "b", "c"] })).toBe("3 runs (a, b, c)");
  expect(
    groupLabel({ targets: Array.from({ length: 18 }, (_, i) => `t${i}`) }),
  ).toBe("18 runs (t0, t1, t2 and 15 more)");
});

Deno.test("driftNote() says whose plan differs from how many runs", () => {
  expect(driftNote({ targets: ["a"] })).toBe("");
  expect(driftNote({ targets: ["a"], drifted: { from: 18 } })).toBe(
    "; drifted: its plan differs from the other 18 runs of the wave",
  );
  expect(driftNote({ targets: ["a", "b"], drifted: { from: 3 } })).toBe(
    "; drifted: their plan differs from the other 3 runs of the wave",
  );
});

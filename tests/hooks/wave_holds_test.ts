// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  holdsAtBase,
  isHold,
  sameHold,
  withHolds,
} from "../../src/hooks/wave_holds.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type { HoldHook, Hooks } from "../../src/spec/types.ts";

const SHA = "b".repeat(40);

function hold(name: string, gate = "infra-wave-1", applied = false): HoldHook {
  return { name, after: { name: "infra", gate, applied } };
}

const NONE: Hooks = {
  "before-plan": [],
  "after-plan": [],
  "before-apply": [],
  "after-apply": [],
};

/** The spec at base: dev holds on infra-wave-1; prod on infra-wave-2 (applied). */
const BASE = parseSpec(
  JSON.stringify({
    name: "tf",
    plan: ["p", "{plan}"],
    apply: ["a"],
    hooks: {
      "before-apply": [{
        name: "net",
        after: { name: "infra", gate: "infra-wave-1" },
      }],
    },
    waves: [
      { name: "dev", runs: ["d1"] },
      {
        name: "prod",
        runs: ["p1", "p2"],
        hooks: {
          "before-plan": [{ name: "ready", run: ["ready"] }, {
            name: "db",
            after: { name: "infra", gate: "infra-wave-2", applied: true },
          }],
        },
      },
    ],
  }),
  "w.json",
);

Deno.test("isHold() and sameHold() tell holds apart", () => {
  expect(isHold(hold("a"))).toBe(true);
  expect(isHold({ name: "a", run: ["x"] })).toBe(false);
  expect(sameHold(hold("a"), hold("renamed"))).toBe(true);
  expect(sameHold(hold("a"), hold("a", "infra-wave-2"))).toBe(false);
  expect(sameHold(hold("a"), hold("a", "infra-wave-1", true))).toBe(false);
});

Deno.test("holdsAtBase() takes the holds of every governing base wave", async (t) => {
  const bases = [{ sha: SHA, spec: { status: "parsed" as const, spec: BASE } }];
  await t.step("by name and position", () => {
    const found = holdsAtBase(bases, { k: 1, name: "dev", targets: [] });
    expect(found.map((h) => [h.point, h.hook.name, h.from])).toEqual([
      ["before-apply", "net", { k: 1, name: "dev" }],
    ]);
  });
  await t.step("a new wave no base wave governs: the top level's", () => {
    const found = holdsAtBase(bases, { k: 3, name: "new", targets: ["n1"] });
    expect(found.map((h) => [h.point, h.hook.name, h.from])).toEqual([
      ["before-apply", "net", "top level"],
    ]);
  });
  await t.step("by target: a renamed wave holding prod's target", () => {
    const found = holdsAtBase(bases, { k: 5, name: "x", targets: ["p2"] });
    expect(found.map((h) => [h.point, h.hook.name, h.sha])).toEqual([
      ["before-plan", "db", SHA],
    ]);
  });
  await t.step("nothing from a spec absent or broken at base", () => {
    const ref = { k: 1, name: "dev", targets: ["d1"] };
    expect(holdsAtBase([{ sha: SHA, spec: { status: "absent" } }], ref))
      .toEqual([]);
    expect(
      holdsAtBase([{
        sha: SHA,
        spec: { status: "unparsable", problem: "x" },
      }], ref),
    ).toEqual([]);
  });
});

Deno.test("withHolds() adds each hold once, at its point", async (t) => {
  await t.step("a hold the hooks lack is added after the point's hooks", () => {
    const hooks = { ...NONE, "before-apply": [{ name: "b", run: ["b"] }] };
    const { hooks: out, added } = withHolds(hooks, [
      { point: "before-apply", hook: hold("x") },
    ]);
    expect(out["before-apply"]).toEqual([{ name: "b", run: ["b"] }, hold("x")]);
    expect(added.length).toBe(1);
    expect(hooks["before-apply"].length).toBe(1);
  });
  await t.step("the same hold at the same point, renamed, is not added", () => {
    const hooks = { ...NONE, "after-plan": [hold("mine")] };
    const { added } = withHolds(hooks, [
      { point: "after-plan", hook: hold("theirs") },
    ]);
    expect(added).toEqual([]);
  });
  await t.step("the same hold at another point is added there", () => {
    const hooks = { ...NONE, "after-plan": [hold("mine")] };
    const { hooks: out } = withHolds(hooks, [
      { point: "before-plan", hook: hold("mine") },
    ]);
    expect(out["before-plan"]).toEqual([hold("mine")]);
  });
});

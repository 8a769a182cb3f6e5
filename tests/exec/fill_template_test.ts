// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { fillTemplate, stepEnv } from "../../src/exec/fill_template.ts";

Deno.test("fillTemplate() replaces every placeholder in every element", async (t) => {
  const values = {
    op: "tf",
    target: "prod-eu",
    wave: "prod",
    k: 3,
    plan: ".chant/waves/x/wave-3/prod-eu-1a2b.plan.json",
    runs: "runs.json",
    plans: "plans.json",
  };
  const cases = [
    {
      name: "one per element",
      template: [
        "{op}",
        "{target}",
        "{wave}",
        "{k}",
        "{plan}",
        "{runs}",
        "{plans}",
      ],
      want: [
        "tf",
        "prod-eu",
        "prod",
        "3",
        ".chant/waves/x/wave-3/prod-eu-1a2b.plan.json",
        "runs.json",
        "plans.json",
      ],
    },
    {
      name: "several in one element, all occurrences",
      template: ["--name={target}-{k}-{target}", "w{k}{wave}"],
      want: ["--name=prod-eu-3-prod-eu", "w3prod"],
    },
    {
      name: "no placeholders",
      template: ["tofu", "apply", "-auto-approve"],
      want: ["tofu", "apply", "-auto-approve"],
    },
    {
      name: "other braces are kept",
      template: ["{}", "{unknown}", "{{target}}", "{ target }"],
      want: ["{}", "{unknown}", "{prod-eu}", "{ target }"],
    },
    { name: "empty template", template: [], want: [] },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () => expect(fillTemplate(c.template, values)).toEqual(c.want),
    );
  }
});

Deno.test("fillTemplate() does not re-expand placeholders inside values", () => {
  expect(fillTemplate(["{target}:{op}"], { target: "{op}", op: "x" })).toEqual([
    "{op}:x",
  ]);
});

Deno.test("fillTemplate() keeps special replacement patterns of values literally", () => {
  expect(fillTemplate(["{target}"], { target: "$&-$1-$$" })).toEqual([
    "$&-$1-$$",
  ]);
});

Deno.test("fillTemplate() throws for a placeholder without a value", () => {
  expect(() => fillTemplate(["plan", "{runs}"], { target: "a" })).toThrow(
    'Cannot fill "{runs}" in "{runs}": no value was given',
  );
});

Deno.test("fillTemplate() does not modify the template", () => {
  const template = ["{target}"];
  fillTemplate(template, { target: "a" });
  expect(template).toEqual(["{target}"]);
});

Deno.test("stepEnv() adds the CHANT_WAVE_* variables to the parent environment", async (t) => {
  await t.step("a run's step", () => {
    expect(
      stepEnv({ HOME: "/home/ci", PATH: "/bin", GONE: undefined }, {
        name: "prod",
        k: 2,
        phase: "plan",
        target: "prod-eu",
        op: "tf-apply",
        plan: ".chant/p.plan.json",
      }),
    ).toEqual({
      HOME: "/home/ci",
      PATH: "/bin",
      CHANT_WAVE_NAME: "prod",
      CHANT_WAVE_K: "2",
      CHANT_WAVE_PHASE: "plan",
      CHANT_WAVE_TARGET: "prod-eu",
      CHANT_WAVE_OP: "tf-apply",
      CHANT_WAVE_PLAN: ".chant/p.plan.json",
    });
  });
  await t.step("inherited CHANT_WAVE_* values never leak", () => {
    expect(
      stepEnv({
        CHANT_WAVE_TARGET: "stale",
        CHANT_WAVE_K: "9",
        CHANT_WAVE_LEDGER: "git",
      }, { name: "dev", k: 1, phase: "apply" }),
    ).toEqual({
      CHANT_WAVE_LEDGER: "git",
      CHANT_WAVE_NAME: "dev",
      CHANT_WAVE_K: "1",
      CHANT_WAVE_PHASE: "apply",
    });
  });
  await t.step("the parent is not modified", () => {
    const parent = { A: "1" };
    stepEnv(parent, { name: "w", k: 1, phase: "plan" });
    expect(parent).toEqual({ A: "1" });
  });
});

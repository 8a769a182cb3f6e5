// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { gateOutlook } from "../../src/gate/gate_outlook.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";

const BASE = JSON.stringify({
  name: "tf",
  plan: ["p", "{plan}"],
  apply: ["a"],
  waves: [
    { name: "dev", gate: "never", runs: [{ target: "dev" }] },
    {
      name: "prod",
      gate: "on-destructive",
      approvers: { required: 2, selfApproval: false },
      runs: [{ target: "eu" }, { target: "us" }],
    },
  ],
});

const at = (text: string | undefined) => [{
  sha: SHA,
  spec: baseSpecOf(text, "waves.jsonc", parseSpec),
}];

Deno.test("gateOutlook() states the gate at base and whether the plans need an approval", async (t) => {
  await t.step(
    "a destructive plan on an on-destructive wave waits for the approvers at base",
    () => {
      const outlook = gateOutlook(at(BASE), { k: 2, name: "prod" }, [
        { target: "eu", destructive: true },
        { target: "us" },
      ]);
      expect(outlook).toEqual({
        policy: "on-destructive",
        needed: true,
        required: 2,
        approvers: "2 distinct approvers, anyone, no self-approval",
        rule:
          'the policy is "on-destructive" and 1 member is destructive: "eu" (read at 0123456789ab: wave 2 "prod" by name and position)',
      });
    },
  );
  await t.step("a wave whose gate is never needs none", () => {
    const outlook = gateOutlook(at(BASE), { k: 1, name: "dev" }, [
      { target: "dev", destructive: true },
    ]);
    expect(outlook.needed).toBe(false);
    expect(outlook.rule).toMatch(
      /^the policy is "never" \(read at 0123456789ab/,
    );
  });
  await t.step("with no spec at base the gate is always", () => {
    const outlook = gateOutlook(at(undefined), { k: 1, name: "dev" }, [
      { target: "dev" },
    ]);
    expect(outlook.policy).toBe("always");
    expect(outlook.needed).toBe(true);
    expect(outlook.rule).toBe(
      'the policy is "always" (the spec is not in 0123456789ab)',
    );
  });
  await t.step(
    "a rule at base over the plan's changes tightens the gate and says so",
    () => {
      const ruled = JSON.stringify({
        ...JSON.parse(BASE),
        waves: [
          { name: "dev", gate: "never", runs: [{ target: "dev" }] },
          {
            name: "prod",
            gate: "never",
            rules: [{
              when: { type: "aws_iam_*" },
              gate: "always",
              approvers: { required: 2 },
            }],
            runs: [{ target: "eu" }, { target: "us" }],
          },
        ],
      });
      const outlook = gateOutlook(at(ruled), { k: 2, name: "prod" }, [
        {
          target: "eu",
          changes: [{ address: "aws_iam_role.deploy", action: "update" }],
        },
        { target: "us", empty: true },
      ]);
      expect(outlook.policy).toBe("always");
      expect(outlook.needed).toBe(true);
      expect(outlook.required).toBe(2);
      expect(outlook.rule).toContain(
        'rules[0] of wave 2 "prod" at 0123456789ab (when type "aws_iam_*": gate "always", 2 approvers) matched eu: aws_iam_role.deploy (update)',
      );
    },
  );
});

Deno.test("gateOutlook() states the wave's soak, freeze windows and canary at base", () => {
  const timed = JSON.stringify({
    ...JSON.parse(BASE),
    freeze: [{
      days: ["fri"],
      hours: "14:00-24:00",
      timezone: "Europe/Berlin",
    }],
    waves: [
      { name: "dev", gate: "never", runs: ["dev"] },
      { name: "prod", runs: ["eu", "us"], soak: "2h", canary: 1 },
    ],
  });
  const outlook = gateOutlook(at(timed), { k: 2, name: "prod" }, [
    { target: "eu" },
  ]);
  expect(outlook.timing).toBe(
    'soak 2h after the wave before (read at 0123456789ab, wave 2 "prod"); freeze windows: fri 14:00-24:00 Europe/Berlin; canary 1 (read at 0123456789ab, wave 2 "prod")',
  );
  expect(gateOutlook(at(BASE), { k: 2, name: "prod" }, []).timing)
    .toBeUndefined();
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  needsApproval,
  type PlannedMember,
} from "../../src/gate/policy_at_base.ts";
import type { GatePolicy } from "../../src/spec/types.ts";

Deno.test("needsApproval() follows the §4.4 rules", async (t) => {
  const plain: PlannedMember = { target: "a" };
  const destroys: PlannedMember = { target: "b", destructive: true };
  const empty: PlannedMember = { target: "c", empty: true };
  const cases: {
    name: string;
    policy: GatePolicy;
    members: PlannedMember[];
    want: { needed: boolean; why: string };
  }[] = [
    {
      name: "always needs one",
      policy: "always",
      members: [plain],
      want: { needed: true, why: 'the policy is "always"' },
    },
    {
      name: "always, some members empty",
      policy: "always",
      members: [plain, empty],
      want: { needed: true, why: 'the policy is "always"' },
    },
    {
      name: "on-destructive with a destructive member",
      policy: "on-destructive",
      members: [plain, destroys],
      want: {
        needed: true,
        why: 'the policy is "on-destructive" and 1 member is destructive: "b"',
      },
    },
    {
      name: "on-destructive names at most three targets",
      policy: "on-destructive",
      members: ["p", "q", "r", "s", "t"].map((target) => ({
        target,
        destructive: true,
      })),
      want: {
        needed: true,
        why:
          'the policy is "on-destructive" and 5 members are destructive: "p", "q", "r", and 2 more',
      },
    },
    {
      name: "on-destructive without targets",
      policy: "on-destructive",
      members: [{ destructive: true }, { destructive: true }],
      want: {
        needed: true,
        why: 'the policy is "on-destructive" and 2 members are destructive',
      },
    },
    {
      name: "on-destructive, nothing destructive",
      policy: "on-destructive",
      members: [plain, empty],
      want: {
        needed: false,
        why: 'the policy is "on-destructive" and no member is destructive',
      },
    },
    {
      name: "never needs none",
      policy: "never",
      members: [destroys],
      want: { needed: false, why: 'the policy is "never"' },
    },
    {
      name: "every member empty needs none, even under always",
      policy: "always",
      members: [empty, { empty: true }],
      want: { needed: false, why: "every member's plan is empty" },
    },
    {
      name: "a wave with no members needs none and says so",
      policy: "always",
      members: [],
      want: {
        needed: false,
        why: "the wave has no members, so it needs no approval",
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(needsApproval(c.policy, c.members)).toEqual(c.want);
    });
  }
});

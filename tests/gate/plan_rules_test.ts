// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  gateByRules,
  type GoverningRules,
  type RuleMember,
  rulesAtBase,
  rulesLines,
} from "../../src/gate/plan_rules.ts";
import type { ApprovalRules } from "../../src/gate/approval_at_base.ts";
import type { GatePolicy, PlanRule } from "../../src/spec/types.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const AT = "1a2b3c4d5e6f";
const APPROVERS: ApprovalRules = {
  mode: "ledger",
  signers: [],
  required: 1,
  allowed: [],
  selfApproval: true,
  source: "base",
  reason: `read at ${AT}: wave 3 "prod" by name`,
};
const IAM: PlanRule = {
  kind: "when",
  match: { type: "aws_iam_*" },
  gate: "always",
  approvers: { required: 2 },
};
const TAGS_ONLY: PlanRule = {
  kind: "only",
  match: { action: "update", attributes: ["tags.**", "tags_all.**"] },
  gate: "never",
};

function prod(gate: GatePolicy, rules: PlanRule[], at = AT): GoverningRules {
  return { at, wave: { k: 3, name: "prod", gate, rules }, toolPlans: true };
}

function verdict(
  governing: GoverningRules[],
  members: RuleMember[],
  fallback = false,
) {
  const policy = governing.length === 0 || fallback
    ? "always"
    : governing.map((g) => g.wave.gate).sort()[0] as GatePolicy;
  return gateByRules({
    policy,
    approvers: APPROVERS,
    rules: { governing, fallback },
    members,
  });
}

const tagsUpdate = (target: string): RuleMember => ({
  target,
  changes: [{
    address: "aws_instance.web",
    action: "update",
    attributes: ["tags.Name", "tags_all.Name"],
  }],
});

Deno.test("gateByRules() tightens when a change matches", async (t) => {
  await t.step("an IAM change on a never wave needs 2 approvers", () => {
    const v = verdict([prod("never", [IAM])], [{
      target: "prod-eu",
      changes: [{ address: "aws_iam_role.deploy", action: "update" }],
    }]);
    expect(v.gate).toBe("always");
    expect(v.approvers.required).toBe(2);
    expect(v.decided.map((d) => d.description)).toEqual([
      `rules[0] of wave 3 "prod" at ${AT} (when type "aws_iam_*": gate "always", 2 approvers) matched prod-eu: aws_iam_role.deploy (update)`,
    ]);
  });
  await t.step("no matching change leaves the policy and approvers", () => {
    const v = verdict([prod("never", [IAM])], [tagsUpdate("prod-eu")]);
    expect(v.gate).toBe("never");
    expect(v.approvers).toBe(APPROVERS);
    expect(v.decided).toEqual([]);
  });
  await t.step("the strictest of several matching rules wins", () => {
    const v = verdict([prod("never", [
      { kind: "when", match: { action: "update" }, gate: "on-destructive" },
      IAM,
      {
        kind: "when",
        match: { address: "aws_iam_*.**" },
        approvers: { required: 3, selfApproval: false },
      },
    ])], [{
      target: "eu",
      changes: [{ address: "aws_iam_role.deploy", action: "update" }],
    }]);
    expect(v.gate).toBe("always");
    expect(v.approvers.required).toBe(3);
    expect(v.approvers.selfApproval).toBe(false);
    expect(v.decided.length).toBe(3);
  });
  await t.step(
    "a plan of commands that lists no change meets every when rule",
    () => {
      const { toolPlans: _, ...commands } = prod("never", [IAM]);
      const v = verdict([commands], [{ target: "eu" }]);
      expect(v.gate).toBe("always");
      expect(v.decided[0].description).toMatch(
        /matched eu: its plan changes something but lists no change$/,
      );
    },
  );
  await t.step(
    "a tool's plan that lists no change (outputs only) meets none",
    () => {
      const v = verdict([prod("never", [IAM])], [{
        target: "eu",
        changes: [],
      }]);
      expect(v.gate).toBe("never");
    },
  );
  await t.step("a cut list meets every when rule", () => {
    const v = verdict([prod("never", [IAM])], [{
      target: "eu",
      changes: [{ address: "aws_instance.web", action: "update" }],
      moreChanges: 300,
    }]);
    expect(v.gate).toBe("always");
  });
});

Deno.test("gateByRules() loosens only when every change of every run matches", async (t) => {
  await t.step("a tags-only update on an always wave needs no approval", () => {
    const v = verdict([prod("always", [TAGS_ONLY])], [
      tagsUpdate("prod-eu"),
      tagsUpdate("prod-us"),
      { target: "prod-ap", empty: true },
    ]);
    expect(v.gate).toBe("never");
    expect(v.decided.map((d) => d.description)).toEqual([
      `rules[0] of wave 3 "prod" at ${AT} (only action "update", attributes "tags.**", "tags_all.**": gate "never") holds: every change of 3 runs matches`,
    ]);
    expect(rulesLines(v, "always", { k: 3, name: "prod" }).at(-1)).toBe(
      'rules of wave 3 "prod": the gate is "never" (the policy at base is "always")',
    );
  });
  await t.step(
    "one non-tag change in any run makes the whole wave wait",
    () => {
      const v = verdict([prod("always", [TAGS_ONLY])], [
        tagsUpdate("prod-eu"),
        {
          target: "prod-us",
          changes: [{
            address: "aws_instance.web",
            action: "update",
            attributes: ["tags.Name", "ami"],
          }],
        },
      ]);
      expect(v.gate).toBe("always");
      expect(v.unmet.map((u) => u.description)).toEqual([
        `rules[0] of wave 3 "prod" at ${AT} (only action "update", attributes "tags.**", "tags_all.**": gate "never") does not hold: prod-us: aws_instance.web (update) changes ami`,
      ]);
    },
  );
  await t.step("a create, or an update without paths, breaks it", () => {
    for (
      const change of [
        { address: "aws_instance.web", action: "create" },
        { address: "aws_instance.web", action: "update" },
        { address: "aws_instance.web", action: "update", attributes: [] },
      ]
    ) {
      expect(
        verdict([prod("always", [TAGS_ONLY])], [{
          target: "eu",
          changes: [change],
        }]).gate,
      ).toBe("always");
    }
  });
  await t.step("a plan listing no change, or a cut list, breaks it", () => {
    expect(verdict([prod("always", [TAGS_ONLY])], [{ target: "eu" }]).gate)
      .toBe("always");
    expect(
      verdict([prod("always", [TAGS_ONLY])], [{
        ...tagsUpdate("eu"),
        moreChanges: 1,
      }]).gate,
    ).toBe("always");
  });
  await t.step(
    "a spec at base that plans with its own commands never loosens",
    () => {
      const { toolPlans: _, ...commands } = prod("always", [TAGS_ONLY]);
      const v = verdict([commands], [tagsUpdate("eu")]);
      expect(v.gate).toBe("always");
      expect(v.unmet[0].description).toMatch(
        /does not hold: the spec there plans with commands of its own/,
      );
    },
  );
  await t.step("a tightening rule of the same wave stops it", () => {
    const v = verdict([prod("always", [TAGS_ONLY, {
      kind: "when",
      match: { address: "aws_instance.*" },
      approvers: { required: 2 },
    }])], [tagsUpdate("eu")]);
    expect(v.gate).toBe("always");
    expect(v.approvers.required).toBe(2);
    expect(v.unmet[0].description).toMatch(/so it loosens nothing$/);
  });
  await t.step(
    "another governing wave or base without it keeps its gate",
    () => {
      const kept = verdict([
        prod("always", [TAGS_ONLY]),
        prod("always", [], "0a1b2c3d4e5f"),
      ], [tagsUpdate("eu")]);
      expect(kept.gate).toBe("always");
      expect(kept.decided).toEqual([]);
      expect(kept.unmet[0].description).toMatch(
        /holds: every change of 1 run matches, but another governing wave or base is stricter, so it loosens nothing$/,
      );
      expect(
        verdict([prod("always", [TAGS_ONLY])], [tagsUpdate("eu")], true).gate,
      ).toBe("always");
      expect(
        verdict([
          prod("always", [TAGS_ONLY]),
          prod("never", [], "0a1b2c3d4e5f"),
        ], [tagsUpdate("eu")]).gate,
      ).toBe("never");
    },
  );
});

Deno.test("rulesAtBase() reads the rules of the governing waves only", () => {
  const text = (rules: string) =>
    JSON.stringify({
      name: "r",
      plan: ["p", "{plan}"],
      apply: ["a"],
      waves: [
        { name: "dev", runs: ["a"], gate: "never" },
        { name: "prod", runs: ["b"], rules: JSON.parse(rules) },
      ],
    });
  const spec = parseSpec(
    text('[{ "when": { "type": "aws_iam_*" }, "gate": "always" }]'),
    "w.json",
  );
  const read = rulesAtBase(
    [
      { sha: "a".repeat(40), spec: { status: "parsed", spec } },
      { sha: "b".repeat(40), spec: { status: "absent" } },
    ],
    { k: 2, name: "prod" },
    ["b"],
  );
  expect(read.fallback).toBe(true);
  expect(
    read.governing.map((
      g,
    ) => [g.at, g.wave.name, g.wave.rules.length, g.toolPlans]),
  ).toEqual([["aaaaaaaaaaaa", "prod", 1, undefined]]);
});

Deno.test("gateByRules() matches sqitch changes by name and action, never by type", () => {
  const deploys: RuleMember[] = [{
    target: "tenant-1",
    changes: [
      { address: "add_orders", action: "deploy" },
      { address: "drop_note", action: "deploy" },
    ],
  }];
  const byName = verdict([prod("on-destructive", [{
    kind: "when",
    match: { address: "drop_*", action: "deploy" },
    gate: "always",
  }])], deploys);
  expect(byName.gate).toBe("always");
  expect(byName.decided[0].description).toMatch(
    /matched tenant-1: drop_note \(deploy\)$/,
  );
  const byType = verdict([prod("never", [{
    kind: "when",
    match: { type: "*" },
    gate: "always",
  }])], deploys);
  expect(byType.gate).toBe("never");
  const onlyAdds = verdict([prod("always", [{
    kind: "only",
    match: { address: "add_*", action: "deploy" },
    gate: "never",
  }])], deploys);
  expect(onlyAdds.gate).toBe("always");
  expect(onlyAdds.unmet[0].description).toMatch(
    /does not hold: tenant-1: drop_note \(deploy\) does not match$/,
  );
});

// End to end through the binary: rules over what a plan changes (SPEC.md §18),
// read at base, with the stand-in `tofu` serving real plan documents
// (tests/fixtures/terraform-plans/identity.json, an update) edited per case.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ENV, planFixture, toolSpec } from "../_helpers/tofu.ts";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** identity.json's update (an import and an update there), edited into a plain update. */
function update(edit: (rc: Json) => void): string {
  const doc = JSON.parse(planFixture("identity.json"));
  delete doc.resource_changes[0].change.importing;
  edit(doc.resource_changes[0]);
  return JSON.stringify(doc);
}

/** An update of an IAM role (identity.json, renamed). */
const IAM = update((rc) => {
  rc.address = "aws_iam_role.deploy";
  rc.type = "aws_iam_role";
  rc.name = "deploy";
});

/** An update that changes tags only. */
const TAGS = update((rc) => {
  rc.address = "aws_instance.web";
  rc.change.before = { ...rc.change.after, tags: { Name: "a" }, tags_all: {} };
  rc.change.after = {
    ...rc.change.after,
    tags: { Name: "b" },
    tags_all: { Name: "b" },
  };
});

/** An update that changes tags and `age`. */
const TAGS_AND_AGE = update((rc) => {
  rc.address = "aws_instance.web";
  rc.change.before = { ...rc.change.after, tags: { Name: "a" } };
  rc.change.after = { ...rc.change.after, tags: { Name: "b" }, age: 1 };
});

const IAM_RULE = {
  when: { type: "aws_iam_*" },
  gate: "always",
  approvers: { required: 2 },
};
const TAGS_RULE = {
  when: { only: { action: "update", attributes: ["tags.**", "tags_all.**"] } },
  gate: "never",
};

Deno.test("run with rules: an IAM change on a never wave waits for 2 approvers", async (t) => {
  await using r = await rollout(
    toolSpec([{
      name: "prod",
      runs: ["eu"],
      gate: "never",
      rules: [IAM_RULE],
    }]),
    { files: { "live/eu/plan.json": IAM } },
  );
  let approve: string[] = [];
  const at = r.base.slice(0, 12);
  const rule =
    `rules[0] of wave 1 "prod" at ${at} (when type "aws_iam_*": gate "always", 2 approvers) matched eu: aws_iam_role.deploy (update)`;
  await t.step(
    "waits, naming the rule in the log and the job summary",
    async () => {
      const summary = `${r.path}/ctl/summary.md`;
      const out = await r.run(["run", ...SPEC, "--wave", "1"], {
        ...ENV,
        GITHUB_ACTIONS: "true",
        GITHUB_STEP_SUMMARY: summary,
      });
      expect(out.code).toBe(3);
      const text = await Deno.readTextFile(summary);
      expect(text).toContain(
        "Decided by the rules at base:\n\n- rules\\[0\\] of wave 1",
      );
      expect(text).toMatch(
        /Approval rules at base: ledger, 2 distinct approvers/,
      );
      expect(out.stderr).toContain(`rules of wave 1 "prod": ${rule}\n`);
      expect(out.stderr).toContain(
        `rules of wave 1 "prod": the gate is "always" (the policy at base is "never")\n`,
      );
      expect(out.stderr).toMatch(
        /approvers of wave 1 "prod": 2 distinct approvers/,
      );
      approve = approveLine(out.stderr);
    },
  );
  await t.step("one approval is not enough, and show says so", async () => {
    expect((await r.run([...approve, "--by", "ann"])).code).toBe(0);
    const shown = await r.run(["show", "tf", "tf-wave-1"]);
    expect(shown.stdout).toContain(`rule: ${rule}\n`);
    expect(shown.stdout).toMatch(/not approved yet: 1 of 2 approvals/);
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain("1 of 2 approvals");
  });
  await t.step("a second approver's approval applies it", async () => {
    expect((await r.run([...approve, "--by", "bob"])).code).toBe(0);
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("[apply] eu | Apply complete!");
  });
});

Deno.test("run with rules: a tags-only update on an always wave applies without approval", async () => {
  await using r = await rollout(
    toolSpec([{
      name: "prod",
      runs: ["eu", "us"],
      gate: "always",
      rules: [TAGS_RULE],
    }]),
    { files: { "live/eu/plan.json": TAGS, "live/us/plan.json": TAGS } },
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
  expect(out.code).toBe(0);
  const at = r.base.slice(0, 12);
  expect(out.stderr).toContain(
    `rules of wave 1 "prod": rules[0] of wave 1 "prod" at ${at} (only action "update", attributes "tags.**", "tags_all.**": gate "never") holds: every change of 2 runs matches\n`,
  );
  expect(out.stderr).toContain(
    `gate tf-wave-1: no approval needed: the policy is "never"\n`,
  );
  expect(out.stderr).toContain("[apply] us | Apply complete!");
  const decision = await r.readJson(".chant/waves/tf/wave-1.json");
  expect(decision.policy).toBe("never");
  expect(decision.policyReason).toMatch(/; and rules\[0\] of wave 1 "prod"/);
});

Deno.test("run with rules: one non-tag change in any run makes the whole wave wait", async () => {
  await using r = await rollout(
    toolSpec([{
      name: "prod",
      runs: ["eu", "us"],
      gate: "always",
      rules: [TAGS_RULE],
    }]),
    {
      files: {
        "live/eu/plan.json": TAGS,
        "live/us/plan.json": TAGS_AND_AGE,
      },
    },
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    /^rules of wave 1 "prod": rules\[0\] .* does not hold: us: aws_instance.web \(update\) changes age$/m,
  );
  expect(out.stderr).not.toContain("Apply complete!");
});

Deno.test("run with rules: a move or an import beside another action is a change the rules see", async (t) => {
  const waits = async (
    rules: Record<string, unknown>[],
    gate: string,
    plan: string,
    seen: RegExp,
  ) => {
    await using r = await rollout(
      toolSpec([{ name: "prod", runs: ["eu"], gate, rules }]),
      { files: { "live/eu/plan.json": plan } },
    );
    const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(seen);
    expect(out.stderr).not.toContain("Apply complete!");
  };
  await t.step(
    "a replace moved out of a module meets a rule over the module's replaces",
    async () => {
      const plan = update((rc) => {
        rc.address = "aws_vpc.main";
        rc.previous_address = "module.network.aws_vpc.main";
        rc.change.actions = ["delete", "create"];
      });
      await waits(
        [{
          when: { address: "module.network.**", action: "replace" },
          gate: "always",
        }],
        "never",
        plan,
        /matched eu: module\.network\.aws_vpc\.main \(replace\)/,
      );
    },
  );
  await t.step(
    "a tags update that also moves the resource does not hold a tags-only rule",
    async () => {
      const plan = update((rc) => {
        rc.address = "aws_instance.web";
        rc.previous_address = "module.old.aws_instance.web";
        rc.change.before = { ...rc.change.after, tags: { Name: "a" } };
        rc.change.after = { ...rc.change.after, tags: { Name: "b" } };
      });
      await waits(
        [TAGS_RULE],
        "always",
        plan,
        /does not hold: eu: aws_instance\.web \(move\) does not match/,
      );
    },
  );
  await t.step("an import beside an update meets an import rule", async () => {
    const plan = JSON.stringify(JSON.parse(planFixture("identity.json")));
    await waits(
      [{ when: { action: "import" }, gate: "always" }],
      "never",
      plan,
      /matched eu: corner_user_identity\.user \(import\)/,
    );
  });
});

Deno.test("run with rules: a rule the change adds itself changes nothing", async () => {
  const wave = { name: "prod", runs: ["eu"], gate: "always" };
  await using r = await rollout(toolSpec([wave]), {
    headSpec: toolSpec([{ ...wave, rules: [TAGS_RULE] }]),
    files: { "live/eu/plan.json": TAGS },
  });
  const out = await r.run(["run", ...SPEC, "--wave", "1"], ENV);
  expect(out.code).toBe(3);
  expect(out.stderr).not.toContain("rules of wave");
  expect(out.stderr).toContain('waiting: the policy is "always"');
});

Deno.test("run with rules: share jobs judge the decided changes, and refuse a slice whose changes moved", async () => {
  await using r = await rollout(
    toolSpec([{
      name: "prod",
      runs: ["eu", "us"],
      shares: 2,
      gate: "always",
      rules: [TAGS_RULE],
    }]),
    { files: { "live/eu/plan.json": TAGS, "live/us/plan.json": TAGS } },
  );
  const decided = await r.run(
    ["run", ...SPEC, "--wave", "1", "--decide"],
    ENV,
  );
  expect(decided.code).toBe(0);
  const share = await r.run(
    ["run", ...SPEC, "--wave", "1", "--share", "1"],
    ENV,
  );
  expect(share.code).toBe(0);
  expect(share.stderr).toContain("[apply] eu | Apply complete!");
  // us now changes more than tags: its plan moved, and is refused.
  await r.repo.write("live/us/plan.json", TAGS_AND_AGE);
  const moved = await r.run(
    ["run", ...SPEC, "--wave", "1", "--share", "2"],
    ENV,
  );
  expect(moved.code).toBe(4);
  expect(moved.stderr).toMatch(/us: its plan moved since wave 1 was decided/);
  expect(moved.stderr).not.toContain("Apply complete!");
});

Deno.test("run with rules: a plan file that commands of the change write never loosens", async () => {
  await using r = await rollout(
    specOf([{
      name: "prod",
      runs: ["eu"],
      gate: "always",
      rules: [TAGS_RULE],
    }]),
  );
  // The change's own plan command claims a tags-only update.
  await r.control(
    "eu",
    "plan-raw",
    JSON.stringify({
      planDigest: `sha256:${"a".repeat(64)}`,
      changes: [{
        address: "aws_instance.web",
        action: "update",
        attributes: ["tags.Name"],
      }],
    }),
  );
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    /^rules of wave 1 "prod": rules\[0\] .* does not hold: the spec there plans with commands of its own, whose plan files the change writes; an only rule loosens only a wave planned by a tool$/m,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("run --pull-request: the plan comment says which rule decided, as the job will", async () => {
  await using r = await rollout(
    toolSpec([{
      name: "prod",
      runs: ["eu"],
      gate: "never",
      rules: [IAM_RULE],
    }]),
    { files: { "live/eu/plan.json": IAM } },
  );
  const out = await r.run(["run", ...SPEC, "--pull-request"], ENV);
  expect(out.code).toBe(0);
  expect(out.stdout).toContain(
    `Gate at base: **always**, 2 distinct approvers, anyone, self-approval allowed; rule: the policy is "always" (read at ${await r
      .readAt()}: wave 1 "prod" by name and position; and rules\\[0\\] of wave 1 "prod" at ${
      r.base.slice(0, 12)
    } (when type "aws\\_iam\\_\\*": gate "always", 2 approvers) matched eu: aws\\_iam\\_role.deploy (update))`,
  );
});

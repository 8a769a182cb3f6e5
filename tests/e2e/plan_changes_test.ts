// End to end through the binary with the stand-in `tofu` (SPEC.md §13.1, §15):
// what a plan of 3 changed resources will do is listed, per target and
// escaped, in the waiting job's log, its job summary ($GITHUB_STEP_SUMMARY),
// `run --json`, `show` and `show --json`, also in an approver's clone reading
// the git ledger, and no sensitive value appears; the summary says which
// approve workflow to run with which inputs.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { runBinary } from "../_helpers/binary.ts";
import { plannedDigest, rollout, SPEC } from "../_helpers/rollout.ts";
import { ENV, planFixture as fixture, toolSpec } from "../_helpers/tofu.ts";

/**
 * A plan of 3 changed resources (and one unchanged): an update with a
 * sensitive value, a delete and a replace, from action_reason.json's entry.
 */
function threeChanges(): string {
  const doc = JSON.parse(fixture("action_reason.json"));
  const [entry] = doc.resource_changes;
  const change = (address: string, actions: string[]) => ({
    ...entry,
    address,
    name: address.split(".")[1],
    change: {
      ...entry.change,
      actions,
      after: actions.includes("create") || actions[0] === "update"
        ? { id: "x", password: "hunter2-secret" }
        : null,
      after_sensitive: { password: true },
    },
  });
  doc.resource_changes = [
    change("aws_instance.web", ["update"]),
    change("aws_db_instance.old", ["delete"]),
    change("aws_s3_bucket.same", ["no-op"]),
    change("aws_lb.front", ["create", "delete"]),
  ];
  return JSON.stringify(doc);
}

Deno.test("run with tool: what 3 changed resources will do shows in the log, show, the job summary and --json", async (t) => {
  await using r = await rollout(
    toolSpec([{ name: "prod", runs: ["prod-eu"], gate: "always" }]),
    { files: { "live/prod-eu/plan.json": threeChanges() } },
  );
  const file = `${r.repo.root}/summary.md`;
  const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"], {
    ...ENV,
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: file,
  });
  const line =
    "prod-eu: - aws_db_instance.old (delete), ~ aws_instance.web (update), -/+ aws_lb.front (replace)";
  // In address order, as the plan document is read.
  const changes = [
    { address: "aws_db_instance.old", action: "delete" },
    { address: "aws_instance.web", action: "update" },
    { address: "aws_lb.front", action: "replace" },
  ];
  await t.step("the waiting job's log lists them", () => {
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`  ${line}\n`);
  });
  await t.step("--json gives each member's changes", () => {
    const result = JSON.parse(out.stdout);
    // The decision keeps the attribute paths the update changes (for the
    // rules over them, SPEC.md §18), the sensitive one named, never its value.
    expect(result.decision.members[0].changes).toEqual([
      changes[0],
      { ...changes[1], attributes: ["id", "password", "triggers"] },
      changes[2],
    ]);
  });
  await t.step("the job summary lists them, escaped", async () => {
    const summary = await Deno.readTextFile(file);
    expect(summary).toContain(
      "- prod-eu: - aws\\_db\\_instance.old (delete), \\~ aws\\_instance.web (update), -/+ aws\\_lb.front (replace)\n",
    );
  });
  await t.step("show lists them, and --json with each plan", async () => {
    const shown = await r.run(["show", "tf", "tf-wave-1"]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`what will change:\n  ${line}\n`);
    const json = await r.run(["show", "tf", "tf-wave-1", "--json"]);
    expect(JSON.parse(json.stdout).plans[0].changes).toEqual(changes);
  });
  await t.step("no sensitive value appears anywhere", async () => {
    const shown = await r.run(["show", "tf", "tf-wave-1", "--json"]);
    const summary = await Deno.readTextFile(file);
    for (const text of [out.stdout, out.stderr, shown.stdout, summary]) {
      expect(text).not.toContain("hunter2");
    }
  });
});

Deno.test("the waiting job's summary says which approve workflow to run with which inputs", async () => {
  await using r = await rollout(
    toolSpec([{ name: "prod", runs: ["prod-eu"], gate: "always" }]),
    { files: { "live/prod-eu/plan.json": threeChanges() } },
  );
  const file = `${r.repo.root}/summary.md`;
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    ...ENV,
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: file,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_REPOSITORY: "octo/hello",
  });
  expect(out.code).toBe(3);
  const digest = plannedDigest(out.stderr);
  expect(await Deno.readTextFile(file)).toContain(
    `Approve from the forge: run the workflow [tf.approve.yml](https://github.com/octo/hello/actions/workflows/tf.approve.yml) with wave \`1\` and digest \`${digest}\`.\n`,
  );
});

Deno.test("an approver's clone shows what 3 changed resources will do, read from the git ledger", async () => {
  await using r = await rollout(
    toolSpec([{ name: "prod", runs: ["prod-eu"], gate: "always" }]),
    { files: { "live/prod-eu/plan.json": threeChanges() } },
  );
  const remote = join(r.repo.root, "remote.git");
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", "-b", "main", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", "main");
  const waiting = await r.run(
    ["run", ...SPEC, "--wave", "1", "--ledger", "git"],
    ENV,
  );
  expect(waiting.code).toBe(3);
  const clone = join(r.repo.root, "approver");
  await r.repo.gitIn(r.repo.root, "clone", "-q", remote, clone);
  const show = (extra: string[] = []) =>
    runBinary(["show", "tf", "tf-wave-1", "--ledger", "git", ...extra], {
      cwd: clone,
    });
  const shown = await show();
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain(
    "what will change:\n  prod-eu: - aws_db_instance.old (delete), ~ aws_instance.web (update), -/+ aws_lb.front (replace)\n",
  );
  const json = JSON.parse((await show(["--json"])).stdout);
  expect(json.plans[0].changes).toHaveLength(3);
  expect(shown.stdout + JSON.stringify(json)).not.toContain("hunter2");
});

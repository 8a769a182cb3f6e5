// The forge's record of a click-path approval, read from the documented shapes
// (SPEC.md §13.1): a GitHub workflow run shows what it asked for in its name;
// a Forgejo run (current `ActionRun` and Forgejo 12's `RepoActionRun`) is
// titled with its workflow's name, so what it asked for stays hidden.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  FORGEJO_TITLE,
  forgejoRun,
  githubRun,
} from "../../src/forge/approve_action.ts";
import { ShapeError } from "../../src/input/shape_error.ts";
import { fixture } from "../_helpers/_fake_forge_core.ts";
import { viaTarget } from "../../src/gate/action_floor.ts";

Deno.test("githubRun() reads the run's name, branch, starter and first actor", () => {
  const body = fixture("github", "workflow-run");
  Object.assign(body, {
    status: "completed",
    conclusion: "success",
    triggering_actor: { login: "dependabot[bot]", type: "Bot" },
  });
  expect(githubRun(body)).toEqual({
    id: "30433642",
    finished: true,
    succeeded: true,
    event: "push",
    workflow: "build.yml",
    asked: { title: "Update README.md" },
    triggeredBy: { login: "dependabot[bot]", bot: true },
    actor: { login: "octocat", bot: false },
    branch: "master",
  });
});

Deno.test("forgejoRun() reads either definition, and never what a dispatch asked for", async (t) => {
  const read = {
    id: "1008",
    finished: true,
    succeeded: true,
    event: "workflow_dispatch",
    workflow: "tf.approve.yml",
    asked: { hidden: FORGEJO_TITLE },
    triggeredBy: { login: "ann", bot: false },
  };
  await t.step("ActionRun (trigger_user, title)", () => {
    expect(forgejoRun(fixture("forgejo", "action-run"))).toEqual(read);
  });
  await t.step("Forgejo 12's RepoActionRun (triggering_actor, name)", () => {
    expect(forgejoRun(fixture("forgejo", "repo-action-run"))).toEqual(read);
  });
  await t.step("the runner's own user is a bot", () => {
    const body = fixture("forgejo", "action-run");
    Object.assign(body, {
      status: "running",
      trigger_user: { login: "forgejo-actions" },
    });
    expect(forgejoRun(body)).toMatchObject({
      finished: false,
      succeeded: false,
      triggeredBy: { login: "forgejo-actions", bot: true },
    });
  });
  await t.step("a run without a status is not of the shape", () => {
    const body = fixture("forgejo", "action-run");
    delete body.status;
    expect(() => forgejoRun(body)).toThrow(ShapeError);
  });
});

Deno.test("viaTarget() names the run or job a via URL names, or nothing", () => {
  expect(viaTarget("https://forgejo.example/o/r/actions/runs/8")).toEqual({
    kind: "run",
    id: "8",
  });
  expect(viaTarget("https://gitlab.example/g/p/-/jobs/70")).toEqual({
    kind: "job",
    id: "70",
  });
  expect(viaTarget("https://github.com/o/r/actions/runs/0")).toBeUndefined();
  expect(viaTarget("not a url")).toBeUndefined();
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  appliedJobName,
  approveJobIndex,
  approveJobName,
  childPipelinePath,
  clickNeeds,
  gateJobName,
} from "../../src/jobs/approve_job.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

Deno.test("approveJobIndex() reads the approval a wave's approve job brings, nothing else", async (t) => {
  const cases: [string, number | undefined][] = [
    [approveJobName(2, "prod", 1), 1],
    ["wave-2-prod-approve-2", 2],
    ["wave-2-prod-approve-100", 100],
    ["wave-2-prod-approve-101", undefined],
    ["wave-2-prod-approve-0", undefined],
    ["wave-2-prod-approve-01", undefined],
    ["wave-2-prod-approve", undefined],
    ["wave-2-prod-approve-1x", undefined],
    ["wave-3-prod-approve-1", undefined],
    ["wave-2-prod-eu-approve-1", undefined],
    [gateJobName(2, "prod"), undefined],
  ];
  for (const [name, index] of cases) {
    await t.step(name, () => {
      expect(approveJobIndex(name, 2, "prod")).toBe(index);
    });
  }
});

Deno.test("the GitLab click path's names", () => {
  expect([
    gateJobName(3, "prod"),
    appliedJobName(1, "dev"),
    childPipelinePath("demo", 2),
  ]).toEqual([
    "wave-3-prod-gate",
    "wave-1-dev-applied",
    ".chant/waves/demo/wave-2.gitlab-ci.yml",
  ]);
});

function spec(approval: string, gate = "always") {
  return parseSpec(
    JSON.stringify({
      name: "tf",
      plan: ["p", "{target}", "{plan}"],
      apply: ["a", "{target}", "{plan}"],
      waves: [
        { name: "dev", gate: "never", runs: ["dev"] },
        { name: "prod", gate, runs: ["eu"], approval },
      ],
    }),
    "waves.json",
  );
}

Deno.test("clickNeeds() names the token a click needs on each forge", () => {
  expect(clickNeeds("gitlab", spec("ledger"))).toEqual({
    how:
      "play the wave's manual job wave-<k>-<name>-approve-<i> in the pipeline",
    token: "a click needs no token",
  });
  expect(clickNeeds("gitlab", spec("forge"))?.token).toBe(
    "its forge gates' jobs confirm each click through the API with GITLAB_TOKEN (a project access token with read_api, as a masked variable)",
  );
  expect(clickNeeds("github", spec("ledger"))).toEqual({
    how: 'run the workflow "chant-wave tf approve"',
    token: "it uses its own GITHUB_TOKEN (actions: write): nothing to set",
  });
  expect(clickNeeds("forgejo", spec("sealed"))?.token).toBe(
    "it needs a token with the write:repository scope as the secret CHANT_WAVE_FORGE_TOKEN",
  );
  expect(clickNeeds("gitlab", spec("ledger", "never"))).toBeUndefined();
});

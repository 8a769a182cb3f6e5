// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { renderGitlabChild } from "../../src/pipeline/render_gitlab_child.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { assertGolden, fixture } from "./_fixtures.ts";
import { gitlabCiLocal } from "./_oracles.ts";

type Listed = { name: string; when: string; needs: { job: string }[] | null };

const CASES = [
  {
    name: "a waiting wave of shares: two approve jobs in turn, then the shares",
    golden: "example/gitlab-child-2-waits.yml",
    k: 2,
    state: { waits: true, first: 1, required: 2 },
    jobs: [
      ["wave-2-staging-approve-1", "manual", []],
      ["wave-2-staging-approve-2", "manual", ["wave-2-staging-approve-1"]],
      ["wave-2-staging-share-1", "on_success", ["wave-2-staging-approve-2"]],
      ["wave-2-staging-share-2", "on_success", ["wave-2-staging-approve-2"]],
    ],
  },
  {
    name:
      "a waiting wave of shares with a canary: the approvals, the deciding job again, then the shares",
    golden: "example/gitlab-child-2-canary.yml",
    k: 2,
    state: { waits: true, first: 2, required: 2, canary: true },
    jobs: [
      ["wave-2-staging-approve-2", "manual", []],
      ["wave-2-staging-decide", "on_success", ["wave-2-staging-approve-2"]],
      ["wave-2-staging-share-1", "on_success", ["wave-2-staging-decide"]],
      ["wave-2-staging-share-2", "on_success", ["wave-2-staging-decide"]],
    ],
  },
  {
    name: "a wave of shares that goes on: the shares alone",
    golden: "example/gitlab-child-2-goes.yml",
    k: 2,
    state: { waits: false },
    jobs: [
      ["wave-2-staging-share-1", "on_success", []],
      ["wave-2-staging-share-2", "on_success", []],
    ],
  },
  {
    name:
      "a whole wave that waited, one approval counted: the second, then the wave again",
    golden: "example/gitlab-child-3-waits.yml",
    k: 3,
    state: { waits: true, first: 2, required: 2 },
    jobs: [
      ["wave-3-prod-approve-2", "manual", []],
      ["wave-3-prod", "on_success", ["wave-3-prod-approve-2"]],
    ],
  },
  {
    name: "a whole wave that applied: one job saying so",
    golden: "example/gitlab-child-3-goes.yml",
    k: 3,
    state: { waits: false },
    jobs: [["wave-3-prod-applied", "on_success", []]],
  },
] as const;

Deno.test({
  name:
    "renderGitlabChild() renders each child as the golden file, listed by gitlab-ci-local",
  sanitizeResources: false,
}, async (t) => {
  const f = await fixture("example");
  for (const c of CASES) {
    await t.step(c.name, async () => {
      const file = renderGitlabChild(f.spec, f.jobs, f.specFile, c.k, c.state);
      expect(file.path).toBe(`.chant/waves/demo/wave-${c.k}.gitlab-ci.yml`);
      await assertGolden(c.golden, file.text);
      await using repo = await tempRepo({ "child.yml": file.text });
      await repo.commit("child");
      const out = await gitlabCiLocal(
        ["--file", "child.yml", "--list-json"],
        repo.path,
        { ...repo.env },
      );
      expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
      const listed = JSON.parse(out.stdout) as Listed[];
      // gitlab-ci-local leaves out a need on the parent pipeline's job.
      expect(listed.map((job) => [
        job.name,
        job.when,
        (job.needs ?? []).map((need) => need.job),
      ])).toEqual(c.jobs);
    });
  }
});

Deno.test("renderGitlabChild() fetches the decision from the parent pipeline's deciding job", async () => {
  const f = await fixture("example");
  const doc = parse(
    renderGitlabChild(f.spec, f.jobs, f.specFile, 2, {
      waits: true,
      first: 1,
      required: 1,
    }).text,
  ) as Record<string, Record<string, unknown>>;
  const decision = {
    pipeline: "$PARENT_PIPELINE_ID",
    job: "wave-2-staging-decide",
  };
  expect(doc["wave-2-staging-approve-1"]).toMatchObject({
    needs: [decision],
    when: "manual",
    allow_failure: false,
    resource_group: "demo/wave-2-staging-approve-1",
    script: [
      'chant-wave approve --spec examples/waves.jsonc --wave 2 --decided --need 1 --ledger git --by "$GITLAB_USER_LOGIN" --via "$CI_JOB_URL"',
    ],
  });
  expect(doc["wave-2-staging-share-2"].needs).toEqual([
    decision,
    { job: "wave-2-staging-approve-1", artifacts: false },
  ]);
  expect(doc["wave-2-staging-share-2"].script).toEqual([
    "chant-wave run --spec examples/waves.jsonc --wave 2 --share 2 --ledger git",
  ]);
});

Deno.test("renderGitlabChild() refuses a wave the spec lacks", async () => {
  const f = await fixture("example");
  expect(() =>
    renderGitlabChild(f.spec, f.jobs, f.specFile, 4, { waits: false })
  ).toThrow(
    "cannot render the GitLab CI child pipeline: the spec has no wave 4",
  );
});

// The hand-off of recorded plans through each forge client (SPEC.md §13),
// against the fake forges: GitHub and Forgejo post one commit status per wave
// and read the head's statuses back (every page, any case of the context);
// GitLab reads the plans file of the merge request's successful record-plans
// jobs, for the head only, and a file it cannot read is a problem, not a skip.

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  claimOfStatus,
  describeStatuses,
  formatPlansFile,
  plansFile,
  readPlansFile,
  statusContext,
} from "../../src/forge/plans_handoff.ts";
import { forgejoClient } from "../../src/forge/forgejo_client.ts";
import { githubClient } from "../../src/forge/github_client.ts";
import { gitlabClient } from "../../src/forge/gitlab_client.ts";
import {
  type FakeForge,
  fakeForge,
  keepPlansArtifact,
} from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";

const HEAD = "a".repeat(40);
const D1 = "sha256:" + "1".repeat(64);
const D2 = "sha256:" + "2".repeat(64);
const PLANS = {
  name: "tf",
  head: HEAD,
  waves: [
    { wave: 1, name: "dev", digest: D1 },
    { wave: 2, name: "prod", digest: D2 },
  ],
};

Deno.test("plansFile(), statusContext() and describeStatuses() name the hand-off", () => {
  expect(plansFile("tf")).toBe(".chant/recorded-plans/tf.json");
  expect(statusContext("tf", 2)).toBe("chant-wave/tf/wave-2");
  expect(describeStatuses(PLANS)).toBe("2 commit statuses of aaaaaaaaaaaa");
  expect(describeStatuses({ ...PLANS, waves: [PLANS.waves[0]] })).toBe(
    "1 commit status of aaaaaaaaaaaa",
  );
});

Deno.test("readPlansFile() reads back what formatPlansFile() wrote", () => {
  const text = formatPlansFile(PLANS);
  expect(text.endsWith("}\n")).toBe(true);
  expect(readPlansFile(JSON.parse(text), "tf", "job 8's artifact")).toEqual({
    head: HEAD,
    claims: [
      { from: "job 8's artifact", wave: 1, digest: D1 },
      { from: "job 8's artifact", wave: 2, digest: D2 },
    ],
  });
});

Deno.test("readPlansFile() turns any file it cannot trust into one problem", async (t) => {
  const good = JSON.parse(formatPlansFile(PLANS));
  const cases: { name: string; body: unknown; problem: string }[] = [
    { name: "not an object", body: [1], problem: "it is not an object: [1]" },
    {
      name: "another version",
      body: { ...good, version: 2 },
      problem: "it is not a plans file of version 1",
    },
    {
      name: "another kind",
      body: { ...good, kind: "approval" },
      problem: "it is not a plans file of version 1",
    },
    {
      name: "another rollout's",
      body: { ...good, name: "other" },
      problem: 'it is not of "tf"',
    },
    {
      name: "a short head",
      body: { ...good, head: "abc" },
      problem: '"head" is not a full commit sha: "abc"',
    },
    {
      name: "too many waves",
      body: {
        ...good,
        waves: Array.from({ length: 501 }, (_, i) => ({
          wave: i + 1,
          digest: D1,
        })),
      },
      problem: '"waves" has 501 entries; at most 500',
    },
    {
      name: "a wave twice",
      body: { ...good, waves: [good.waves[0], good.waves[0]] },
      problem: '"waves[1].wave" appears twice: 1',
    },
    {
      name: "a digest that is not one",
      body: { ...good, waves: [{ wave: 1, digest: "sha256:XYZ" }] },
      problem:
        '"waves[0].digest" is not sha256:<64 lowercase hex>: "sha256:XYZ"',
    },
    {
      name: "a wave that is no number",
      body: { ...good, waves: [{ wave: "1", digest: D1 }] },
      problem: '"waves[0].wave" is not a whole number from 1 to 500: "1"',
    },
    {
      name: "a null wave",
      body: { ...good, waves: [null] },
      problem: '"waves[0]" is not an object: null',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(readPlansFile(c.body, "tf", "job 8's artifact")).toEqual({
        claims: [{ from: "job 8's artifact", problem: c.problem }],
      });
    });
  }
});

Deno.test("claimOfStatus() reads a status of the rollout's contexts, and nothing else", async (t) => {
  const status = (fields: Record<string, unknown>) => ({
    id: 17,
    context: "chant-wave/tf/wave-1",
    state: "success",
    description: D1,
    ...fields,
  });
  const cases: { name: string; item: unknown; want: unknown }[] = [
    {
      name: "a hand-off",
      item: status({}),
      want: { from: "status 17", wave: 1, digest: D1 },
    },
    {
      name: "the context in another case (forges ignore case)",
      item: status({ context: "Chant-Wave/TF/WAVE-1" }),
      want: { from: "status 17", wave: 1, digest: D1 },
    },
    {
      name: "another context",
      item: status({ context: "ci/build" }),
      want: undefined,
    },
    {
      name: "another rollout's",
      item: status({ context: "chant-wave/tfx/wave-1" }),
      want: undefined,
    },
    { name: "no context", item: { id: 1 }, want: undefined },
    { name: "not an object", item: "x", want: undefined },
    {
      name: "no wave number",
      item: status({ context: "chant-wave/tf/wave-01" }),
      want: { from: "status 17", problem: "its context names no wave" },
    },
    {
      name: "a failed status",
      item: status({ state: "failure" }),
      want: {
        from: "status 17",
        wave: 1,
        problem: 'its state is "failure", not "success"',
      },
    },
    {
      name: "a state that is no word",
      item: status({ state: "succ\u001bess" }),
      want: {
        from: "status 17",
        wave: 1,
        problem: 'its state is not a state, not "success"',
      },
    },
    {
      name: "a description that is not exactly a digest",
      item: status({ description: `${D1} ` }),
      want: {
        from: "status 17",
        wave: 1,
        problem: "its description is not a set digest",
      },
    },
    {
      name: "Forgejo's state field",
      item: { ...status({}), state: undefined, status: "success" },
      want: { from: "status 17", wave: 1, digest: D1 },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const key = c.name === "Forgejo's state field" ? "status" : "state";
      expect(claimOfStatus(c.item, key, "tf")).toEqual(c.want);
    });
  }
});

const HANDED_HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
const OTHER = "ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091";
const HANDED_PLANS = {
  name: "tf",
  head: HANDED_HEAD,
  waves: [
    { wave: 1, name: "dev", digest: D1 },
    { wave: 2, name: "prod", digest: D2 },
  ],
};
const QUERY = { pullRequest: 12, head: HANDED_HEAD, name: "tf" };
const FILE = ".chant/recorded-plans/tf.json";

function actionsClient(fake: FakeForge) {
  const make = fake.forge === "github" ? githubClient : forgejoClient;
  return make({
    apiUrl: fake.apiUrl,
    token: fake.token,
    repository: "octo/hello",
    ...testDeps().deps,
  });
}

for (const forge of ["github", "forgejo"] as const) {
  Deno.test(`${forge}: handPlans() posts a status per wave; handedPlans() reads them back`, async () => {
    await using fake = fakeForge(forge, { maxPageSize: 2 });
    const client = actionsClient(fake);
    expect(await client.handPlans!(HANDED_PLANS, "https://ci.example/run/3"))
      .toBe(
        "2 commit statuses of 6dcb09b5b578",
      );
    const posts = fake.requests.filter((request) => request.method === "POST");
    expect(posts.map((post) => [post.path, JSON.parse(post.body)])).toEqual(
      [1, 2].map((k) => [
        `/repos/octo/hello/statuses/${HANDED_HEAD}`,
        {
          state: "success",
          context: `chant-wave/tf/wave-${k}`,
          description: k === 1 ? D1 : D2,
          target_url: "https://ci.example/run/3",
        },
      ]),
    );
    fake.state.statuses.get(HANDED_HEAD)!.push(
      { id: 9, state: "success", context: "ci/build", description: "ok" },
      { id: 10, state: "pending", context: "CHANT-WAVE/tf/wave-2" },
    );
    expect(await client.handedPlans(QUERY)).toEqual([
      {
        from: "status 10",
        wave: 2,
        problem: 'its state is "pending", not "success"',
      },
      { from: "status 2", wave: 2, digest: D2 },
      { from: "status 1", wave: 1, digest: D1 },
    ]);
    expect(await client.handedPlans({ ...QUERY, head: OTHER })).toEqual([]);
    expect(fake.protocolErrors).toEqual([]);
  });
}

function labClient(fake: FakeForge) {
  return gitlabClient({
    apiUrl: fake.apiUrl,
    token: fake.token,
    repository: "42",
    ...testDeps().deps,
  });
}

Deno.test("gitlab: handedPlans() reads the record-plans artifacts of the merge request's pipelines, for its head", async (t) => {
  await t.step("the head's file, another head's left out", async () => {
    await using fake = fakeForge("gitlab");
    const job = keepPlansArtifact(
      fake,
      12,
      HANDED_HEAD,
      FILE,
      formatPlansFile(HANDED_PLANS),
    );
    keepPlansArtifact(
      fake,
      12,
      OTHER,
      FILE,
      formatPlansFile({ ...HANDED_PLANS, head: OTHER }),
    );
    expect(await labClient(fake).handedPlans(QUERY)).toEqual([
      { from: `job ${job}'s artifact`, wave: 1, digest: D1 },
      { from: `job ${job}'s artifact`, wave: 2, digest: D2 },
    ]);
    const paths = fake.requests.map((request) => request.path);
    expect(paths).toContain("/projects/42/merge_requests/12/pipelines");
    expect(paths).toContain(`/projects/42/jobs/${job}/artifacts/${FILE}`);
    expect(fake.protocolErrors).toEqual([]);
  });
  await t.step("failed jobs and other jobs are not read", async () => {
    await using fake = fakeForge("gitlab");
    const job = keepPlansArtifact(
      fake,
      12,
      HANDED_HEAD,
      FILE,
      formatPlansFile(HANDED_PLANS),
    );
    fake.state.jobs.find((other) => other.id === job)!.status = "failed";
    fake.state.jobs.push({
      id: 5,
      name: "lint",
      status: "success",
      pipeline: 900,
    });
    expect(await labClient(fake).handedPlans(QUERY)).toEqual([]);
    expect(
      fake.requests.filter((request) => request.path.includes("/artifacts/")),
    ).toEqual([]);
  });
  await t.step("a job without the file hands nothing over", async () => {
    await using fake = fakeForge("gitlab");
    const job = keepPlansArtifact(fake, 12, HANDED_HEAD, "other.json", "{}");
    expect(job).toBeGreaterThan(0);
    expect(await labClient(fake).handedPlans(QUERY)).toEqual([]);
  });
  await t.step("a file that is not JSON is a problem", async () => {
    await using fake = fakeForge("gitlab");
    const job = keepPlansArtifact(fake, 12, HANDED_HEAD, FILE, "not json");
    expect(await labClient(fake).handedPlans(QUERY)).toEqual([
      {
        from: `job ${job}'s artifact`,
        problem: "it is not a plans file: bad-answer",
      },
    ]);
  });
  await t.step(
    "a file larger than a plans file may be is a problem",
    async () => {
      await using fake = fakeForge("gitlab");
      const job = keepPlansArtifact(
        fake,
        12,
        HANDED_HEAD,
        FILE,
        JSON.stringify({ pad: "x".repeat(70_000) }),
      );
      expect(await labClient(fake).handedPlans(QUERY)).toEqual([
        {
          from: `job ${job}'s artifact`,
          problem: "it is not a plans file: too-large",
        },
      ]);
    },
  );
  await t.step("GitLab takes no commit statuses from chant-wave", async () => {
    await using fake = fakeForge("gitlab");
    expect(labClient(fake).handPlans).toBeUndefined();
  });
});

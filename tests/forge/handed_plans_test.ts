// The hand-off of recorded plans through each forge client (SPEC.md §13),
// against the fake forges: GitHub and Forgejo post one commit status per wave
// and read the head's statuses back (every page, any case of the context);
// GitLab reads the plans file of the merge request's successful record-plans
// jobs, for the head only, and a file it cannot read is a problem, not a skip.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { forgejoClient } from "../../src/forge/forgejo_client.ts";
import { githubClient } from "../../src/forge/github_client.ts";
import { gitlabClient } from "../../src/forge/gitlab_client.ts";
import { formatPlansFile } from "../../src/forge/plans_handoff.ts";
import {
  type FakeForge,
  fakeForge,
  keepPlansArtifact,
} from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";

const HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
const OTHER = "ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091";
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
const QUERY = { pullRequest: 12, head: HEAD, name: "tf" };
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
    expect(await client.handPlans!(PLANS, "https://ci.example/run/3")).toBe(
      "2 commit statuses of 6dcb09b5b578",
    );
    const posts = fake.requests.filter((request) => request.method === "POST");
    expect(posts.map((post) => [post.path, JSON.parse(post.body)])).toEqual(
      [1, 2].map((k) => [
        `/repos/octo/hello/statuses/${HEAD}`,
        {
          state: "success",
          context: `chant-wave/tf/wave-${k}`,
          description: k === 1 ? D1 : D2,
          target_url: "https://ci.example/run/3",
        },
      ]),
    );
    fake.state.statuses.get(HEAD)!.push(
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
    const job = keepPlansArtifact(fake, 12, HEAD, FILE, formatPlansFile(PLANS));
    keepPlansArtifact(
      fake,
      12,
      OTHER,
      FILE,
      formatPlansFile({ ...PLANS, head: OTHER }),
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
    const job = keepPlansArtifact(fake, 12, HEAD, FILE, formatPlansFile(PLANS));
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
    const job = keepPlansArtifact(fake, 12, HEAD, "other.json", "{}");
    expect(job).toBeGreaterThan(0);
    expect(await labClient(fake).handedPlans(QUERY)).toEqual([]);
  });
  await t.step("a file that is not JSON is a problem", async () => {
    await using fake = fakeForge("gitlab");
    const job = keepPlansArtifact(fake, 12, HEAD, FILE, "not json");
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
        HEAD,
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

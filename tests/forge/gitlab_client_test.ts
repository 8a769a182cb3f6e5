// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { gitlabClient } from "../../src/forge/gitlab_client.ts";
import type { GitlabRunLocator } from "../../src/ci/run_locator.ts";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";

const FIRST = "3eed087b29835c48015768f839d76e5ea8f07a24";
const SECOND = "33e2ee8579fda5bc36accc9c6fbd0b4fefda9e30";
const MERGE = "af5b13261899fb2c0db30abdd0af8b07cb44fdc5";

function client(fake: FakeForge) {
  return gitlabClient({
    apiUrl: fake.apiUrl,
    token: fake.token,
    repository: "42",
    ...testDeps().deps,
  });
}

function locator(fake: FakeForge, jobId = "7"): GitlabRunLocator {
  return {
    forge: "gitlab",
    apiUrl: fake.apiUrl,
    projectId: "42",
    pipelineId: "6",
    jobId,
    jobName: "wave 2 prod",
  };
}

function pipeline(fake: FakeForge, ...jobs: [number, string, string][]) {
  fake.state.jobs = jobs.map(([id, name, status]) => ({
    id,
    name,
    status,
    pipeline: 6,
  }));
}

Deno.test("gitlabClient() restartJob() retries the recorded job", async () => {
  await using fake = fakeForge("gitlab", { maxPageSize: 1 });
  pipeline(fake, [6, "wave 1 dev", "success"], [7, "wave 2 prod", "failed"]);
  expect(await client(fake).restartJob(locator(fake))).toEqual({
    status: "resumed",
    detail: "retried job 7 as job 8",
  });
  expect(fake.state.retries).toEqual([7]);
  const paths = fake.requests.map((request) =>
    `${request.method} ${request.path}?${new URLSearchParams(request.query)}`
  );
  expect(paths).toEqual([
    "GET /projects/42/pipelines/6/jobs?per_page=100&include_retried=true",
    "GET /projects/42/pipelines/6/jobs?per_page=100&include_retried=true&page=2",
    "POST /projects/42/jobs/7/retry?",
  ]);
  expect(fake.requests[2].headers.get("private-token")).toBe(fake.token);
  expect(fake.requests[2].body).toBe("");
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("gitlabClient() restartJob() skips or finds no job", async (t) => {
  await t.step("a newer job of the name exists", async () => {
    await using fake = fakeForge("gitlab");
    pipeline(fake, [7, "wave 2 prod", "failed"], [9, "wave 2 prod", "running"]);
    expect(await client(fake).restartJob(locator(fake))).toEqual({
      status: "skipped",
      reason: "a newer job 9 of the name exists",
    });
    expect(fake.state.retries).toEqual([]);
  });
  await t.step("the job has not finished", async () => {
    await using fake = fakeForge("gitlab");
    pipeline(fake, [7, "wave 2 prod", "running"]);
    expect(await client(fake).restartJob(locator(fake))).toEqual({
      status: "skipped",
      reason: "job 7 has not finished (running)",
    });
  });
  await t.step(
    "the job ended green: its wave waits at a manual approve job",
    async () => {
      await using fake = fakeForge("gitlab");
      pipeline(fake, [7, "wave 2 prod", "success"]);
      expect(await client(fake).restartJob(locator(fake))).toEqual({
        status: "skipped",
        reason:
          "job 7 ended green: its wave goes on when its manual approve job is played",
      });
      expect(fake.state.retries).toEqual([]);
    },
  );
  await t.step("the pipeline is gone", async () => {
    await using fake = fakeForge("gitlab");
    expect(await client(fake).restartJob(locator(fake))).toEqual({
      status: "no-job",
      reason: "pipeline 6 is gone",
    });
  });
  await t.step("the job is not in the pipeline", async () => {
    await using fake = fakeForge("gitlab");
    pipeline(fake, [6, "wave 1 dev", "success"]);
    expect(await client(fake).restartJob(locator(fake, "99"))).toEqual({
      status: "no-job",
      reason: "job 99 is not in pipeline 6",
    });
  });
  await t.step("another project's job: nothing is sent", async () => {
    await using fake = fakeForge("gitlab");
    pipeline(fake, [7, "wave 2 prod", "failed"]);
    expect(
      await client(fake).restartJob({ ...locator(fake), projectId: "43" }),
    ).toEqual({
      status: "no-job",
      reason: "recorded for another repository (43)",
    });
    expect(fake.requests).toEqual([]);
  });
});

Deno.test("gitlabClient() pullRequestsOfCommit() normalises merge requests", async () => {
  await using fake = fakeForge("gitlab");
  fake.state.pulls = [
    {
      number: 1,
      author: "thedude",
      headSha: SECOND,
      merged: true,
      mergeSha: MERGE,
    },
    {
      number: 2,
      author: "walter",
      headSha: FIRST,
      merged: false,
      commits: [MERGE],
    },
  ];
  expect(await client(fake).pullRequestsOfCommit(MERGE)).toEqual([
    {
      number: 1,
      author: "thedude",
      merged: true,
      headSha: SECOND,
      mergeSha: MERGE,
    },
    { number: 2, author: "walter", merged: false, headSha: FIRST },
  ]);
  expect(fake.requests[0].path).toBe(
    `/projects/42/repository/commits/${MERGE}/merge_requests`,
  );
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("gitlabClient() reviews() ties each approval to the head it was given on", async (t) => {
  const versions = [
    { head: FIRST, createdAt: "2016-07-25T14:21:33.028Z" },
    { head: SECOND, createdAt: "2016-07-26T14:44:48.926Z" },
  ];
  await t.step("by the time of the approval and of each push", async () => {
    await using fake = fakeForge("gitlab", { maxPageSize: 1 });
    fake.state.versions.set(1, versions);
    fake.state.approvals.set(1, [
      { user: "walter", approvedAt: "2016-07-26T15:00:00.000Z" },
      { user: "donny", approvedAt: "2016-07-25T20:00:00.000Z" },
    ]);
    fake.state.reviewers.set(1, [
      { user: "maude", state: "requested_changes" },
      { user: "walter", state: "approved" },
      { user: "jesus", state: "unreviewed" },
    ]);
    expect(await client(fake).reviews(1)).toEqual([
      {
        user: "donny",
        state: "approved",
        commitSha: FIRST,
        submittedAt: "2016-07-25T20:00:00.000Z",
      },
      {
        user: "walter",
        state: "approved",
        commitSha: SECOND,
        submittedAt: "2016-07-26T15:00:00.000Z",
      },
      { user: "maude", state: "changes_requested" },
    ]);
    expect(fake.protocolErrors).toEqual([]);
  });
  await t.step(
    "without approved_at, only a single version names the head",
    async () => {
      await using fake = fakeForge("gitlab");
      fake.state.approvals.set(1, [{ user: "walter" }]);
      fake.state.versions.set(1, versions);
      fake.state.approvals.set(2, [{ user: "walter" }]);
      fake.state.versions.set(2, [versions[0]]);
      expect(await client(fake).reviews(1)).toEqual([
        { user: "walter", state: "approved" },
      ]);
      expect(await client(fake).reviews(2)).toEqual([
        { user: "walter", state: "approved", commitSha: FIRST },
      ]);
    },
  );
  await t.step("no approvals: the versions are not read", async () => {
    await using fake = fakeForge("gitlab");
    expect(await client(fake).reviews(1)).toEqual([]);
    expect(fake.requests.map((request) => request.path)).toEqual([
      "/projects/42/merge_requests/1/approvals",
      "/projects/42/merge_requests/1/reviewers",
    ]);
  });
});

Deno.test("gitlabClient() permission() maps the member's access level", async (t) => {
  await using fake = fakeForge("gitlab");
  const levels: [number, string][] = [
    [50, "admin"],
    [40, "maintain"],
    [30, "write"],
    [20, "triage"],
    [10, "read"],
  ];
  levels.forEach(([level], i) =>
    fake.state.members.set(`user${level}`, { id: i + 1, accessLevel: level })
  );
  fake.state.members.set("outsider", { id: 90 });
  fake.state.members.set("blocked", {
    id: 91,
    accessLevel: 40,
    state: "blocked",
  });
  for (const [level, permission] of levels) {
    await t.step(`access level ${level}`, async () => {
      expect(await client(fake).permission(`user${level}`)).toBe(permission);
    });
  }
  await t.step("a user who is not a member", async () => {
    expect(await client(fake).permission("outsider")).toBe("none");
  });
  await t.step("a blocked member", async () => {
    expect(await client(fake).permission("blocked")).toBe("none");
  });
  await t.step("no such user", async () => {
    expect(await client(fake).permission("nobody")).toBe("none");
  });
  expect(fake.requests.slice(0, 2).map((request) => request.path)).toEqual([
    "/users",
    "/projects/42/members/all/1",
  ]);
  expect(fake.protocolErrors).toEqual([]);
});

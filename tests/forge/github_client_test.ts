// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import { ForgeError } from "../../src/forge/forge_error.ts";
import { githubClient } from "../../src/forge/github_client.ts";
import type { GithubRunLocator } from "../../src/ci/run_locator.ts";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";

const HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
const MERGE = "e5bd3914e2e596debea16f433f57875b5b90bcd6";
const OLD = "ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091";

function client(fake: FakeForge, repository = "octo/hello") {
  return githubClient({
    apiUrl: fake.apiUrl,
    token: fake.token,
    repository,
    ...testDeps().deps,
  });
}

function locator(fake: FakeForge, attempt = 1): GithubRunLocator {
  return {
    forge: "github",
    apiUrl: fake.apiUrl,
    repository: "octo/hello",
    runId: "30433642",
    attempt,
  };
}

Deno.test("githubClient() restartJob() re-runs the failed jobs of a finished run", async () => {
  await using fake = fakeForge("github");
  fake.state.runs.set("30433642", { status: "completed", attempt: 1 });
  const result = await client(fake).restartJob(locator(fake));
  expect(result).toEqual({
    status: "resumed",
    detail: "re-ran the failed jobs of run 30433642 (attempt 2)",
  });
  expect(fake.state.reruns).toEqual(["30433642"]);
  const post = fake.requests[1];
  expect([post.method, post.path, post.body]).toEqual([
    "POST",
    "/repos/octo/hello/actions/runs/30433642/rerun-failed-jobs",
    "{}",
  ]);
  expect(post.headers.get("authorization")).toBe(`Bearer ${fake.token}`);
  expect(post.headers.get("x-github-api-version")).toBe("2022-11-28");
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("githubClient() restartJob() re-runs every job of a run whose waiting job ended green", async () => {
  await using fake = fakeForge("github");
  fake.state.runs.set("30433642", {
    status: "completed",
    attempt: 1,
    conclusion: "success",
  });
  const result = await client(fake).restartJob(locator(fake));
  expect(result).toEqual({
    status: "resumed",
    detail: "re-ran every job of run 30433642 (attempt 2)",
  });
  expect(fake.state.reruns).toEqual(["30433642 (every job)"]);
  expect([fake.requests[1].method, fake.requests[1].path]).toEqual([
    "POST",
    "/repos/octo/hello/actions/runs/30433642/rerun",
  ]);
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("githubClient() restartJob() skips what must not be re-run", async (t) => {
  await t.step("a run that is not completed", async () => {
    await using fake = fakeForge("github");
    fake.state.runs.set("30433642", { status: "in_progress", attempt: 1 });
    expect(await client(fake).restartJob(locator(fake))).toEqual({
      status: "skipped",
      reason: "run 30433642 is in_progress, not completed",
    });
    expect(fake.state.reruns).toEqual([]);
  });
  await t.step("a run re-run since the recorded attempt", async () => {
    await using fake = fakeForge("github");
    fake.state.runs.set("30433642", { status: "completed", attempt: 3 });
    expect(await client(fake).restartJob(locator(fake, 2))).toEqual({
      status: "skipped",
      reason: "run 30433642 was re-run since (attempt 3)",
    });
    expect(fake.state.reruns).toEqual([]);
  });
  await t.step("a run that is gone", async () => {
    await using fake = fakeForge("github");
    expect(await client(fake).restartJob(locator(fake))).toEqual({
      status: "no-job",
      reason: "run 30433642 is gone",
    });
  });
});

Deno.test("githubClient() restartJob() sends nothing for another's locator", async (t) => {
  const cases: [
    string,
    (fake: FakeForge) => Parameters<
      ReturnType<typeof client>["restartJob"]
    >[0],
    string,
  ][] = [
    [
      "another repository",
      (fake) => ({ ...locator(fake), repository: "evil/repo" }),
      "recorded for another repository (evil/repo)",
    ],
    [
      "another API",
      (fake) => ({ ...locator(fake), apiUrl: "https://evil.example/api" }),
      "recorded for another API (https://evil.example/api)",
    ],
    [
      "another forge",
      (fake) => ({
        forge: "forgejo",
        apiUrl: fake.apiUrl,
        repository: "octo/hello",
        workflow: "w.yml",
        ref: "refs/heads/main",
      }),
      "recorded on forgejo, not github",
    ],
  ];
  for (const [name, make, reason] of cases) {
    await t.step(name, async () => {
      await using fake = fakeForge("github");
      fake.state.runs.set("30433642", { status: "completed", attempt: 1 });
      expect(await client(fake).restartJob(make(fake))).toEqual({
        status: "no-job",
        reason,
      });
      expect(fake.requests).toEqual([]);
    });
  }
  await t.step("repository names compare case-insensitively", async () => {
    await using fake = fakeForge("github");
    fake.state.runs.set("30433642", { status: "completed", attempt: 1 });
    const result = await client(fake, "octo/hello").restartJob({
      ...locator(fake),
      repository: "Octo/Hello",
    });
    expect(result.status).toBe("resumed");
  });
});

Deno.test("githubClient() pullRequestsOfCommit() lists every page, normalised", async () => {
  await using fake = fakeForge("github", { maxPageSize: 1 });
  fake.state.pulls = [
    {
      number: 1347,
      author: "octocat",
      headSha: HEAD,
      merged: true,
      mergeSha: MERGE,
    },
    {
      number: 1348,
      author: "hubot",
      headSha: OLD,
      merged: false,
      commits: [MERGE],
    },
  ];
  expect(await client(fake).pullRequestsOfCommit(MERGE)).toEqual([
    {
      number: 1347,
      author: "octocat",
      merged: true,
      headSha: HEAD,
      mergeSha: MERGE,
    },
    { number: 1348, author: "hubot", merged: false, headSha: OLD },
  ]);
  expect(fake.requests.map((request) => request.path)).toEqual([
    `/repos/octo/hello/commits/${MERGE}/pulls`,
    `/repos/octo/hello/commits/${MERGE}/pulls`,
  ]);
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("githubClient() reviews() normalises every submitted review", async () => {
  await using fake = fakeForge("github", { maxPageSize: 2 });
  fake.state.reviews.set(12, [
    {
      user: "ann",
      state: "COMMENTED",
      commitId: OLD,
      submittedAt: "2019-11-17T17:40:00Z",
    },
    {
      user: "bob",
      state: "CHANGES_REQUESTED",
      commitId: OLD,
      submittedAt: "2019-11-17T17:41:00Z",
    },
    { user: "eve", state: "PENDING", commitId: HEAD },
    {
      user: null,
      state: "APPROVED",
      commitId: HEAD,
      submittedAt: "2019-11-17T17:42:00Z",
    },
    {
      user: "bob",
      state: "DISMISSED",
      commitId: OLD,
      submittedAt: "2019-11-17T17:43:00Z",
    },
    {
      user: "ann",
      state: "APPROVED",
      commitId: null,
      submittedAt: "2019-11-17T17:44:00Z",
    },
    {
      user: "cy",
      state: "APPROVED",
      commitId: HEAD,
      submittedAt: "2019-11-17T17:45:00+02:00",
    },
  ]);
  expect(await client(fake).reviews(12)).toEqual([
    {
      user: "ann",
      state: "commented",
      commitSha: OLD,
      submittedAt: "2019-11-17T17:40:00.000Z",
    },
    {
      user: "bob",
      state: "changes_requested",
      commitSha: OLD,
      submittedAt: "2019-11-17T17:41:00.000Z",
    },
    {
      user: "bob",
      state: "dismissed",
      commitSha: OLD,
      submittedAt: "2019-11-17T17:43:00.000Z",
    },
    { user: "ann", state: "approved", submittedAt: "2019-11-17T17:44:00.000Z" },
    {
      user: "cy",
      state: "approved",
      commitSha: HEAD,
      submittedAt: "2019-11-17T15:45:00.000Z",
    },
  ]);
  expect(fake.requests.length).toBe(4);
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("githubClient() reviews() refuses a state it does not know", async () => {
  await using fake = fakeForge("github");
  fake.state.reviews.set(12, [{
    user: "ann",
    state: "LGTM",
    submittedAt: "2019-11-17T17:44:00Z",
  }]);
  const error = await client(fake).reviews(12).catch((e) => e);
  expect(error).toBeInstanceOf(ForgeError);
  expect(error.message).toBe(
    `GET ${fake.apiUrl}/repos/octo/hello/pulls/12/reviews?per_page=***: unexpected answer: [0].state is not a known review state`,
  );
});

Deno.test("githubClient() permission() reads the role, none for strangers", async (t) => {
  await using fake = fakeForge("github");
  for (const role of ["admin", "maintain", "write", "triage", "read"]) {
    fake.state.permissions.set(`user-${role}`, role);
  }
  for (const role of ["admin", "maintain", "write", "triage", "read"]) {
    await t.step(role, async () => {
      expect(await client(fake).permission(`user-${role}`)).toBe(role);
    });
  }
  await t.step("a stranger (404)", async () => {
    expect(await client(fake).permission("stranger")).toBe("none");
  });
  await t.step("a custom role falls back to the base permission", async () => {
    fake.fail({
      status: 200,
      body: {
        permission: "write",
        role_name: "deployer",
        user: { login: "dee" },
      },
    });
    expect(await client(fake).permission("dee")).toBe("write");
  });
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("githubClient() checks what it is given before asking", async (t) => {
  await using fake = fakeForge("github");
  await t.step("a short SHA", async () => {
    await expect(client(fake).pullRequestsOfCommit("6dcb09b")).rejects.toThrow(
      new InputError('"6dcb09b" is not a full commit SHA'),
    );
  });
  await t.step("a login with a slash", async () => {
    await expect(client(fake).permission("a/b")).rejects.toThrow(
      new InputError('"a/b" is not a user name'),
    );
  });
  await t.step("a repository that is not owner/name", () => {
    expect(() => client(fake, "octo")).toThrow(
      new InputError('the repository "octo" is not "owner/name"'),
    );
  });
  expect(fake.requests).toEqual([]);
});

Deno.test("githubClient() names the field of a malformed answer", async () => {
  await using fake = fakeForge("github");
  fake.fail({ status: 200, body: { id: 1, status: 7 } });
  const error = await client(fake).restartJob(locator(fake)).catch((e) => e);
  expect(error).toBeInstanceOf(ForgeError);
  expect(error.message).toBe(
    `GET ${fake.apiUrl}/repos/octo/hello/actions/runs/30433642: unexpected answer: .status is not a string`,
  );
  expect(fake.state.reruns).toEqual([]);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { forgejoClient } from "../../src/forge/forgejo_client.ts";
import type { ForgejoRunLocator } from "../../src/ci/run_locator.ts";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";

const HEAD = "89e6c98d92887913cadf06b2adb97f26cde4849b";
const OLD = "3f786850e387550fdab836ed7e6dc881de23001b";
const MERGE = "8b5d8fb1f4ecd2ea1e7cbf4a5cb5a0d3f4f41c2a";

function client(fake: FakeForge) {
  return forgejoClient({
    apiUrl: fake.apiUrl,
    token: fake.token,
    repository: "octo/hello",
    ...testDeps().deps,
  });
}

function locator(fake: FakeForge): ForgejoRunLocator {
  return {
    forge: "forgejo",
    apiUrl: fake.apiUrl,
    repository: "octo/hello",
    workflow: "rollout.yml",
    ref: "refs/heads/main",
  };
}

Deno.test("forgejoClient() restartJob() dispatches the workflow on the ref", async () => {
  await using fake = fakeForge("forgejo");
  fake.state.workflows.set("rollout.yml", ["refs/heads/main"]);
  expect(await client(fake).restartJob(locator(fake))).toEqual({
    status: "resumed",
    detail: "dispatched workflow rollout.yml on refs/heads/main",
  });
  expect(fake.state.dispatches).toEqual([
    { workflow: "rollout.yml", ref: "refs/heads/main" },
  ]);
  const [post] = fake.requests;
  expect([post.method, post.path, post.body]).toEqual([
    "POST",
    "/repos/octo/hello/actions/workflows/rollout.yml/dispatches",
    '{"ref":"refs/heads/main"}',
  ]);
  expect(post.headers.get("authorization")).toBe(`token ${fake.token}`);
  expect(post.headers.get("content-type")).toBe("application/json");
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("forgejoClient() restartJob() finds no job", async (t) => {
  await t.step("a workflow missing on the ref", async () => {
    await using fake = fakeForge("forgejo");
    fake.state.workflows.set("rollout.yml", ["refs/heads/other"]);
    expect(await client(fake).restartJob(locator(fake))).toEqual({
      status: "no-job",
      reason: "workflow rollout.yml is not on refs/heads/main",
    });
    expect(fake.state.dispatches).toEqual([]);
  });
  await t.step("another repository: nothing is sent", async () => {
    await using fake = fakeForge("forgejo");
    expect(
      await client(fake).restartJob({ ...locator(fake), repository: "x/y" }),
    ).toEqual({
      status: "no-job",
      reason: "recorded for another repository (x/y)",
    });
    expect(fake.requests).toEqual([]);
  });
});

Deno.test("forgejoClient() pullRequestsOfCommit() names the pull request a commit merged", async (t) => {
  await using fake = fakeForge("forgejo");
  fake.state.pulls = [
    { number: 3, author: "octo", headSha: HEAD, merged: true, mergeSha: MERGE },
  ];
  await t.step("the merge commit", async () => {
    expect(await client(fake).pullRequestsOfCommit(MERGE)).toEqual([
      {
        number: 3,
        author: "octo",
        merged: true,
        headSha: HEAD,
        mergeSha: MERGE,
      },
    ]);
  });
  await t.step("a commit no pull request merged (404)", async () => {
    expect(await client(fake).pullRequestsOfCommit(OLD)).toEqual([]);
  });
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("forgejoClient() reviews() normalises the submitted reviews", async () => {
  await using fake = fakeForge("forgejo", { maxPageSize: 2 });
  fake.state.reviews.set(3, [
    {
      user: "ann",
      state: "COMMENT",
      commitId: OLD,
      submittedAt: "2025-06-01T09:00:00Z",
    },
    {
      user: "bob",
      state: "REQUEST_CHANGES",
      commitId: OLD,
      submittedAt: "2025-06-01T09:10:00Z",
    },
    {
      user: "bob",
      state: "REQUEST_CHANGES",
      commitId: OLD,
      dismissed: true,
      submittedAt: "2025-06-01T09:15:00Z",
    },
    { user: "eve", state: "PENDING", commitId: HEAD },
    { user: null, state: "REQUEST_REVIEW" },
    { user: "cy", state: "REQUEST_REVIEW" },
    {
      user: "ann",
      state: "APPROVED",
      commitId: HEAD,
      submittedAt: "2025-06-01T09:30:00+02:00",
    },
  ]);
  expect(await client(fake).reviews(3)).toEqual([
    {
      user: "ann",
      state: "commented",
      commitSha: OLD,
      submittedAt: "2025-06-01T09:00:00.000Z",
    },
    {
      user: "bob",
      state: "changes_requested",
      commitSha: OLD,
      submittedAt: "2025-06-01T09:10:00.000Z",
    },
    {
      user: "bob",
      state: "dismissed",
      commitSha: OLD,
      submittedAt: "2025-06-01T09:15:00.000Z",
    },
    {
      user: "ann",
      state: "approved",
      commitSha: HEAD,
      submittedAt: "2025-06-01T07:30:00.000Z",
    },
  ]);
  expect(fake.requests.map((request) => request.query)).toEqual([
    { limit: "50" },
    { limit: "50", page: "2" },
    { limit: "50", page: "3" },
    { limit: "50", page: "4" },
  ]);
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("forgejoClient() permission() maps the collaborator permission", async (t) => {
  await using fake = fakeForge("forgejo");
  const cases: [string, string][] = [
    ["owner", "admin"],
    ["admin", "admin"],
    ["write", "write"],
    ["read", "read"],
    ["none", "none"],
  ];
  for (const [given] of cases) fake.state.permissions.set(`u-${given}`, given);
  for (const [given, expected] of cases) {
    await t.step(given, async () => {
      expect(await client(fake).permission(`u-${given}`)).toBe(expected);
    });
  }
  await t.step("no such user (404)", async () => {
    expect(await client(fake).permission("nobody")).toBe("none");
  });
  expect(fake.protocolErrors).toEqual([]);
});

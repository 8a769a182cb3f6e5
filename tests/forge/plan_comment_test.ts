// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ForgeError } from "../../src/forge/forge_error.ts";
import { forgejoClient } from "../../src/forge/forgejo_client.ts";
import { githubClient } from "../../src/forge/github_client.ts";
import { gitlabClient } from "../../src/forge/gitlab_client.ts";
import { planStatusContext, statusBody } from "../../src/forge/plan_comment.ts";
import type { ForgeClient } from "../../src/forge/forge_client.ts";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";
import { claimOfStatus } from "../../src/forge/plans_handoff.ts";

const HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
const MARKER = "<!-- chant-wave plan: tf -->";
const BOT = {
  github: "github-actions[bot]",
  forgejo: "forgejo-actions",
  gitlab: "project_42_bot",
} as const;

function client(fake: FakeForge): ForgeClient {
  const make = fake.forge === "github"
    ? githubClient
    : fake.forge === "forgejo"
    ? forgejoClient
    : gitlabClient;
  return make({
    apiUrl: fake.apiUrl,
    token: fake.token,
    repository: fake.forge === "gitlab" ? "42" : "octo/hello",
    ...testDeps().deps,
  });
}

for (const forge of ["github", "forgejo", "gitlab"] as const) {
  Deno.test(`${forge}: keepPlanComment() creates one comment, then edits it`, async () => {
    await using fake = fakeForge(forge, { maxPageSize: 2 });
    if (forge === "gitlab") fake.state.tokenUser = BOT.gitlab;
    // Other people's comments, one of them holding the marker.
    fake.state.comments.set(7, [
      { id: 1, author: "ann", body: "looks good", edits: 0 },
      { id: 2, author: "mallory", body: `${MARKER}\napproved!`, edits: 0 },
      { id: 3, author: "bob", body: "+1", edits: 0 },
    ]);
    const forgeClient = client(fake);
    const first = await forgeClient.keepPlanComment(
      7,
      MARKER,
      `${MARKER}\none`,
    );
    expect(first.action).toBe("created");
    const second = await forgeClient.keepPlanComment(
      7,
      MARKER,
      `${MARKER}\ntwo`,
    );
    expect(second).toEqual({ action: "edited", id: first.id });
    const third = await forgeClient.keepPlanComment(
      7,
      MARKER,
      `${MARKER}\nthree`,
    );
    expect(third).toEqual({ action: "edited", id: first.id });
    const comments = fake.state.comments.get(7)!;
    expect(comments.map((c) => [c.author, c.body, c.edits])).toEqual([
      ["ann", "looks good", 0],
      ["mallory", `${MARKER}\napproved!`, 0],
      ["bob", "+1", 0],
      [BOT[forge], `${MARKER}\nthree`, 2],
    ]);
    expect(fake.protocolErrors).toEqual([]);
    if (forge !== "forgejo") {
      // The list was read over several pages.
      expect(
        fake.requests.filter((r) => r.method === "GET" && r.query.page).length,
      ).toBeGreaterThan(0);
    }
  });

  Deno.test(`${forge}: keepPlanComment() with a read-only token fails with the forge's 403`, async () => {
    await using fake = fakeForge(forge);
    if (forge === "gitlab") fake.state.tokenUser = BOT.gitlab;
    fake.state.readOnly = true;
    const error = await client(fake).keepPlanComment(7, MARKER, `${MARKER}\nx`)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ForgeError);
    expect((error as ForgeError).status).toBe(403);
    expect(fake.state.comments.get(7)).toBeUndefined();
    expect(String(error)).not.toContain(fake.token);
  });

  Deno.test(`${forge}: postWaveStatus() posts the wave's status on the head`, async () => {
    await using fake = fakeForge(forge);
    await client(fake).postWaveStatus(HEAD, {
      context: planStatusContext("tf", "prod"),
      state: "success",
      description: "3 to change, waits for 2 approvals",
      targetUrl: "https://ci.example/run/3",
    });
    await client(fake).postWaveStatus(HEAD, {
      context: planStatusContext("tf", "dev"),
      state: "failure",
      description: "1 run failed to plan",
    });
    const statuses = forge === "gitlab"
      ? fake.state.gitlabStatuses.get(HEAD)
      : fake.state.statuses.get(HEAD);
    expect(statuses).toEqual([
      {
        id: 1,
        context: "chant-wave/tf/plan/prod",
        state: "success",
        description: "3 to change, waits for 2 approvals",
        targetUrl: "https://ci.example/run/3",
      },
      {
        id: 2,
        context: "chant-wave/tf/plan/dev",
        state: forge === "gitlab" ? "failed" : "failure",
        description: "1 run failed to plan",
      },
    ]);
    expect(fake.protocolErrors).toEqual([]);
  });
}

Deno.test("github: keepPlanComment() reads its own login when the token may", async () => {
  await using fake = fakeForge("github");
  fake.state.tokenUser = "deploy-bot";
  fake.state.comments.set(7, [
    { id: 5, author: "github-actions[bot]", body: `${MARKER}\nold`, edits: 0 },
  ]);
  const kept = await client(fake).keepPlanComment(7, MARKER, `${MARKER}\nnew`);
  // The comment of another user (even a bot) is not this token's.
  expect(kept.action).toBe("created");
  expect(fake.state.comments.get(7)!.map((c) => c.author)).toEqual([
    "github-actions[bot]",
    "deploy-bot",
  ]);
});

Deno.test("statusBody() cuts the description to what GitHub keeps", () => {
  const body = statusBody(
    { context: "c", state: "success", description: "x".repeat(200) },
    "github",
  );
  expect(body.description.length).toBe(140);
  expect(body.description.endsWith("…")).toBe(true);
});

Deno.test("planStatusContext() is never read as a hand-off of recorded plans, whatever the wave's name", () => {
  for (const wave of ["prod", "wave-2", "wave-"]) {
    expect(
      claimOfStatus(
        {
          id: 1,
          context: planStatusContext("tf", wave),
          state: "success",
          description: "1 to change, applies without approval",
        },
        "state",
        "tf",
      ),
    ).toBeUndefined();
  }
});

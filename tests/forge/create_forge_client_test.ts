// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  createForgeClient,
  forgeClientFromEnv,
} from "../../src/forge/create_forge_client.ts";
import { fakeForge } from "../_helpers/fake_forge.ts";
import { testDeps } from "./_forge_test_deps.ts";

Deno.test("createForgeClient() makes the client of each forge", () => {
  for (const forge of ["github", "gitlab", "forgejo"] as const) {
    const client = createForgeClient(forge, {
      apiUrl: "https://forge.example/api",
      token: "t",
      repository: forge === "gitlab" ? "42" : "o/r",
    });
    expect(client.forge).toBe(forge);
  }
});

Deno.test("forgeClientFromEnv() says what is missing", async (t) => {
  const cases: [string, Record<string, string>, unknown][] = [
    ["outside CI", { GITHUB_TOKEN: "t" }, { ok: false, missing: "forge" }],
    ["no token", { GITHUB_ACTIONS: "true", GITHUB_REPOSITORY: "o/r" }, {
      ok: false,
      missing: "token",
      forge: "github",
    }],
    ["no GitLab API URL", {
      GITLAB_CI: "true",
      GITLAB_TOKEN: "t",
      CI_PROJECT_ID: "1",
    }, { ok: false, missing: "api-url", forge: "gitlab" }],
    ["no repository", {
      FORGEJO_ACTIONS: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_TOKEN: "t",
      GITHUB_SERVER_URL: "https://c.org",
    }, { ok: false, missing: "repository", forge: "forgejo" }],
  ];
  for (const [name, env, expected] of cases) {
    await t.step(name, () => expect(forgeClientFromEnv(env)).toEqual(expected));
  }
});

Deno.test("forgeClientFromEnv() builds a working client from CI variables", async () => {
  await using fake = fakeForge("gitlab");
  fake.state.members.set("ann", { id: 5, accessLevel: 30 });
  const made = forgeClientFromEnv({
    GITLAB_CI: "true",
    CI_API_V4_URL: fake.apiUrl,
    CI_PROJECT_ID: "42",
    GITLAB_TOKEN: fake.token,
  }, { deps: testDeps().deps });
  if (!made.ok) throw new Error(`no client: ${made.missing}`);
  expect(made.tokenVariable).toBe("GITLAB_TOKEN");
  expect(await made.client.permission("ann")).toBe("write");
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("forgeClientFromEnv() takes the forge and repository it is given", async () => {
  await using fake = fakeForge("github", { repository: "octo/other" });
  fake.state.permissions.set("ann", "maintain");
  const made = forgeClientFromEnv(
    { GITHUB_API_URL: fake.apiUrl, CHANT_WAVE_FORGE_TOKEN: fake.token },
    { forge: "github", repository: "octo/other", deps: testDeps().deps },
  );
  if (!made.ok) throw new Error(`no client: ${made.missing}`);
  expect(await made.client.permission("ann")).toBe("maintain");
});

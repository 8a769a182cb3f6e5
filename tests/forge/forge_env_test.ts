// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import {
  forgeApiUrl,
  forgeRepository,
  forgeToken,
} from "../../src/forge/forge_env.ts";

Deno.test("forgeApiUrl() reads each forge's API URL", async (t) => {
  const cases: [string, Parameters<typeof forgeApiUrl>, string | undefined][] =
    [
      ["GitHub default", ["github", {}], "https://api.github.com"],
      ["GitHub Enterprise", ["github", {
        GITHUB_API_URL: "https://ghe.example/api/v3/",
      }], "https://ghe.example/api/v3"],
      [
        "GitLab",
        ["gitlab", { CI_API_V4_URL: "https://gitlab.example/api/v4" }],
        "https://gitlab.example/api/v4",
      ],
      ["GitLab outside CI", ["gitlab", {}], undefined],
      ["Forgejo GITHUB_API_URL", ["forgejo", {
        GITHUB_API_URL: "https://codeberg.org/api/v1",
        GITHUB_SERVER_URL: "https://x",
      }], "https://codeberg.org/api/v1"],
      ["Forgejo server URL", ["forgejo", {
        GITHUB_SERVER_URL: "https://codeberg.org/",
      }], "https://codeberg.org/api/v1"],
      ["Forgejo with neither", ["forgejo", {}], undefined],
    ];
  for (const [name, args, expected] of cases) {
    await t.step(name, () => expect(forgeApiUrl(...args)).toBe(expected));
  }
});

Deno.test("forgeToken() takes the first token variable that is set", async (t) => {
  const all = {
    CHANT_WAVE_FORGE_TOKEN: "cw",
    GITHUB_TOKEN: "gh",
    GH_TOKEN: "ghc",
    GITLAB_TOKEN: "gl",
  };
  const cases: [string, Parameters<typeof forgeToken>, unknown][] = [
    ["CHANT_WAVE_FORGE_TOKEN first", ["github", all], {
      token: "cw",
      variable: "CHANT_WAVE_FORGE_TOKEN",
    }],
    [
      "GitHub: GITHUB_TOKEN",
      ["github", { ...all, CHANT_WAVE_FORGE_TOKEN: "" }],
      { token: "gh", variable: "GITHUB_TOKEN" },
    ],
    [
      "GitHub: GH_TOKEN",
      ["github", { GH_TOKEN: " ghc\n", GITLAB_TOKEN: "gl" }],
      { token: "ghc", variable: "GH_TOKEN" },
    ],
    ["Forgejo: GITHUB_TOKEN", ["forgejo", { GITHUB_TOKEN: "gh" }], {
      token: "gh",
      variable: "GITHUB_TOKEN",
    }],
    ["GitLab: GITLAB_TOKEN, never GITHUB_TOKEN", ["gitlab", {
      GITHUB_TOKEN: "gh",
      GITLAB_TOKEN: "gl",
    }], { token: "gl", variable: "GITLAB_TOKEN" }],
    [
      "GitLab: not CI_JOB_TOKEN",
      ["gitlab", { CI_JOB_TOKEN: "job" }],
      undefined,
    ],
    ["GitHub: not GITLAB_TOKEN", ["github", { GITLAB_TOKEN: "gl" }], undefined],
    ["none set", ["forgejo", {}], undefined],
  ];
  for (const [name, args, expected] of cases) {
    await t.step(name, () => expect(forgeToken(...args)).toEqual(expected));
  }
  await t.step("a token with inner spaces is refused, its value unsaid", () => {
    expect(() => forgeToken("github", { GITHUB_TOKEN: "abc def" })).toThrow(
      new InputError(
        "GITHUB_TOKEN is not a usable token: it holds spaces, control or non-ASCII characters",
      ),
    );
  });
});

Deno.test("forgeRepository() reads the repository or project id", () => {
  expect(forgeRepository("github", { GITHUB_REPOSITORY: "o/r" })).toBe("o/r");
  expect(forgeRepository("forgejo", { GITHUB_REPOSITORY: "o/r" })).toBe("o/r");
  expect(forgeRepository("gitlab", { CI_PROJECT_ID: "42" })).toBe("42");
  expect(forgeRepository("gitlab", { GITHUB_REPOSITORY: "o/r" }))
    .toBeUndefined();
});

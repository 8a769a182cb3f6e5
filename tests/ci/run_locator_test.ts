// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseRunLocator, sameRunLocator } from "../../src/ci/run_locator.ts";
import { ShapeError } from "../../src/input/shape_error.ts";

const GITHUB = {
  forge: "github",
  apiUrl: "https://api.github.com",
  repository: "octo/hello",
  runId: "30433642",
  attempt: 1,
};
const GITLAB = {
  forge: "gitlab",
  apiUrl: "https://gitlab.example.com/api/v4",
  projectId: "42",
  pipelineId: "6",
  jobId: "7",
  jobName: "wave 2: prod [eu]",
};
const FORGEJO = {
  forge: "forgejo",
  apiUrl: "https://codeberg.org/api/v1",
  repository: "octo/hello",
  workflow: "rollout.yml",
  ref: "refs/heads/main",
};

function without(object: Record<string, unknown>, key: string) {
  return Object.fromEntries(
    Object.entries(object).filter(([name]) => name !== key),
  );
}

Deno.test("parseRunLocator() reads back each forge's locator", async (t) => {
  for (const locator of [GITHUB, GITLAB, FORGEJO]) {
    await t.step(locator.forge, () => {
      expect(parseRunLocator(JSON.parse(JSON.stringify(locator)))).toEqual(
        locator,
      );
    });
  }
});

Deno.test("parseRunLocator() refuses hostile input, naming the field and never the value", async (t) => {
  const cases: [string, unknown, string][] = [
    ["null", null, "is not an object"],
    ["an array", [GITHUB], "is not an object"],
    ["a string", "github", "is not an object"],
    [
      "no forge",
      { ...GITHUB, forge: undefined },
      '"forge" must be one of github, gitlab, forgejo',
    ],
    [
      "an unknown forge",
      { ...GITHUB, forge: "bitbucket" },
      '"forge" must be one of github, gitlab, forgejo',
    ],
    [
      "an unknown field",
      { ...GITHUB, token: "x" },
      'unknown field "token" for github',
    ],
    [
      "another forge's field",
      { ...GITHUB, jobId: "7" },
      'unknown field "jobId" for github',
    ],
    [
      "a __proto__ key",
      JSON.parse('{"forge":"github","__proto__":{"x":1}}'),
      'unknown field "__proto__" for github',
    ],
    [
      "an unknown key with control characters",
      { ...GITHUB, "\x1b[31mred": 1 },
      'unknown field "\\u001b[31mred" for github',
    ],
    ["a missing field", without(GITHUB, "attempt"), 'has no "attempt"'],
    [
      "a numeric run id",
      { ...GITHUB, runId: 30433642 },
      '"runId" must be a run id (digits)',
    ],
    [
      "a zero id",
      { ...GITHUB, runId: "0" },
      '"runId" must be a run id (digits)',
    ],
    [
      "a negative id",
      { ...GITHUB, runId: "-1" },
      '"runId" must be a run id (digits)',
    ],
    [
      "an exponent id",
      { ...GITHUB, runId: "1e3" },
      '"runId" must be a run id (digits)',
    ],
    [
      "a path in an id",
      { ...GITLAB, jobId: "7/../8" },
      '"jobId" must be a job id (digits)',
    ],
    [
      "an id of 21 digits",
      { ...GITLAB, pipelineId: "1".repeat(21) },
      '"pipelineId" must be a pipeline id (digits)',
    ],
    [
      "attempt 0",
      { ...GITHUB, attempt: 0 },
      '"attempt" must be a whole number from 1 to 10000',
    ],
    [
      "attempt 1.5",
      { ...GITHUB, attempt: 1.5 },
      '"attempt" must be a whole number from 1 to 10000',
    ],
    [
      "attempt as text",
      { ...GITHUB, attempt: "1" },
      '"attempt" must be a whole number from 1 to 10000',
    ],
    [
      "attempt 10001",
      { ...GITHUB, attempt: 10001 },
      '"attempt" must be a whole number from 1 to 10000',
    ],
    [
      "a repository of three parts",
      { ...GITHUB, repository: "a/b/c" },
      '"repository" must be `owner/name`',
    ],
    [
      "a repository ..",
      { ...GITHUB, repository: "../hello" },
      '"repository" must be `owner/name`',
    ],
    [
      "a repository with a space",
      { ...FORGEJO, repository: "octo/he llo" },
      '"repository" must be `owner/name`',
    ],
    [
      "an empty repository",
      { ...FORGEJO, repository: "" },
      '"repository" must be `owner/name`',
    ],
    [
      "a javascript: URL",
      { ...GITHUB, apiUrl: "javascript:alert(1)" },
      '"apiUrl" must be an http(s) URL without credentials, query or fragment',
    ],
    [
      "a file: URL",
      { ...GITHUB, apiUrl: "file:///etc/passwd" },
      '"apiUrl" must be an http(s) URL without credentials, query or fragment',
    ],
    [
      "URL credentials",
      { ...GITHUB, apiUrl: "https://ci:tok@api.github.com" },
      '"apiUrl" must be an http(s) URL without credentials, query or fragment',
    ],
    [
      "a URL query",
      { ...GITHUB, apiUrl: "https://api.github.com/?x=1" },
      '"apiUrl" must be an http(s) URL without credentials, query or fragment',
    ],
    [
      "a URL with a newline",
      { ...GITHUB, apiUrl: "https://api.github.com\n/x" },
      '"apiUrl" must be an http(s) URL without credentials, query or fragment',
    ],
    [
      "a huge URL",
      { ...GITHUB, apiUrl: `https://h/${"a".repeat(3000)}` },
      '"apiUrl" must be an http(s) URL without credentials, query or fragment',
    ],
    [
      "an empty job name",
      { ...GITLAB, jobName: "" },
      '"jobName" must be a job name (1 to 255 characters, no control characters)',
    ],
    [
      "a job name with ANSI",
      { ...GITLAB, jobName: "\x1b[2Jprod" },
      '"jobName" must be a job name (1 to 255 characters, no control characters)',
    ],
    [
      "a job name of 256",
      { ...GITLAB, jobName: "j".repeat(256) },
      '"jobName" must be a job name (1 to 255 characters, no control characters)',
    ],
    [
      "a workflow path",
      { ...FORGEJO, workflow: "../secrets.yml" },
      '"workflow" must be a workflow file name (`name.yml`)',
    ],
    [
      "a workflow that is no YAML",
      { ...FORGEJO, workflow: "rollout.sh" },
      '"workflow" must be a workflow file name (`name.yml`)',
    ],
    [
      "a short ref",
      { ...FORGEJO, ref: "main" },
      '"ref" must be a full git ref (`refs/heads/main`)',
    ],
    [
      "a ref with ..",
      { ...FORGEJO, ref: "refs/heads/a..b" },
      '"ref" must be a full git ref (`refs/heads/main`)',
    ],
    [
      "a ref with a space",
      { ...FORGEJO, ref: "refs/heads/a b" },
      '"ref" must be a full git ref (`refs/heads/main`)',
    ],
    [
      "a .lock ref",
      { ...FORGEJO, ref: "refs/heads/x.lock" },
      '"ref" must be a full git ref (`refs/heads/main`)',
    ],
    [
      "a ref with ESC",
      { ...FORGEJO, ref: "refs/heads/\x1bx" },
      '"ref" must be a full git ref (`refs/heads/main`)',
    ],
  ];
  for (const [name, value, what] of cases) {
    await t.step(name, () => {
      let error: unknown;
      try {
        parseRunLocator(value);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ShapeError);
      expect((error as Error).message).toBe(`run locator: ${what}`);
      expect((error as Error).message).not.toContain("\x1b");
    });
  }
});

Deno.test("parseRunLocator() keeps only its own fields", () => {
  const parsed = parseRunLocator({ ...FORGEJO });
  expect(Object.keys(parsed).sort()).toEqual(
    ["apiUrl", "forge", "ref", "repository", "workflow"],
  );
});

Deno.test("sameRunLocator() tells one CI job from another", () => {
  const github = parseRunLocator(GITHUB);
  const gitlab = parseRunLocator(GITLAB);
  expect(sameRunLocator(github, parseRunLocator({ ...GITHUB }))).toBe(true);
  expect(sameRunLocator(github, parseRunLocator({ ...GITHUB, attempt: 2 })))
    .toBe(false);
  expect(sameRunLocator(gitlab, parseRunLocator({ ...GITLAB, jobId: "8" })))
    .toBe(false);
  expect(sameRunLocator(github, gitlab)).toBe(false);
  // Forgejo names no run: every dispatch on the ref is the same job to restart.
  const forgejo = parseRunLocator(FORGEJO);
  expect(sameRunLocator(forgejo, parseRunLocator({ ...FORGEJO }))).toBe(true);
});

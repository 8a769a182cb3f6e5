// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requestContext } from "../../src/ci/request_context.ts";

const GH = { GITHUB_ACTIONS: "true", GITHUB_REPOSITORY: "octo/hello" };
const event = (full: unknown, number: unknown = 7) => ({
  pull_request: { number, head: { repo: { full_name: full } } },
});

Deno.test("requestContext() finds the request and tells a fork's", () => {
  const cases: [string, Record<string, string>, unknown, unknown][] = [
    ["outside CI", {}, undefined, { kind: "none", why: "not in a CI job" }],
    ["a GitHub push", GH, { ref: "refs/heads/main" }, {
      kind: "none",
      why: "not in a pull_request event",
    }],
    ["a GitHub pull request", GH, event("Octo/Hello"), {
      kind: "request",
      number: 7,
    }],
    ["a fork's", GH, event("mallory/hello"), { kind: "fork", number: 7 }],
    ["a head repository since deleted", GH, event(null), {
      kind: "fork",
      number: 7,
    }],
    ["a number that is no number", GH, event("octo/hello", "7"), {
      kind: "none",
      why: "not in a pull_request event",
    }],
    [
      "a Forgejo pull request",
      { FORGEJO_ACTIONS: "true", GITHUB_REPOSITORY: "octo/hello" },
      event("octo/hello", 3),
      { kind: "request", number: 3 },
    ],
    ["a GitLab branch pipeline", { GITLAB_CI: "true" }, undefined, {
      kind: "none",
      why: "not in a merge request pipeline",
    }],
    [
      "a GitLab merge request",
      {
        GITLAB_CI: "true",
        CI_MERGE_REQUEST_IID: "12",
        CI_MERGE_REQUEST_PROJECT_ID: "42",
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "42",
      },
      undefined,
      { kind: "request", number: 12 },
    ],
    [
      "a GitLab fork's",
      {
        GITLAB_CI: "true",
        CI_MERGE_REQUEST_IID: "12",
        CI_MERGE_REQUEST_PROJECT_ID: "42",
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "99",
      },
      undefined,
      { kind: "fork", number: 12 },
    ],
  ];
  const sha = "0123456789abcdef0123456789abcdef01234567";
  cases.push(
    ["a GitHub pull request naming its target's tip", GH, {
      pull_request: {
        number: 7,
        head: { repo: { full_name: "octo/hello" } },
        base: { sha },
      },
    }, { kind: "request", number: 7, target: sha }],
    ["a target that is no sha", GH, {
      pull_request: {
        number: 7,
        head: { repo: { full_name: "octo/hello" } },
        base: { sha: "main" },
      },
    }, { kind: "request", number: 7 }],
    [
      "a GitLab merge request naming its merge base",
      {
        GITLAB_CI: "true",
        CI_MERGE_REQUEST_IID: "12",
        CI_MERGE_REQUEST_DIFF_BASE_SHA: sha,
      },
      undefined,
      { kind: "request", number: 12, target: sha },
    ],
  );
  for (const [, env, payload, expected] of cases) {
    expect(requestContext(env, payload)).toEqual(expected);
  }
});

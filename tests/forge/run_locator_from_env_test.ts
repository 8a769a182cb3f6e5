// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseRunLocator } from "../../src/ci/run_locator.ts";
import {
  describeLocator,
  runLocatorFromEnv,
} from "../../src/forge/run_locator_from_env.ts";

const GITHUB_ENV = {
  GITHUB_ACTIONS: "true",
  GITHUB_REPOSITORY: "octo/hello",
  GITHUB_RUN_ID: "30433642",
  GITHUB_RUN_ATTEMPT: "2",
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_API_URL: "https://api.github.com",
  GITHUB_WORKFLOW_REF:
    "octo/hello/.github/workflows/chant-wave.yml@refs/heads/main",
};

const GITLAB_ENV = {
  GITLAB_CI: "true",
  CI_API_V4_URL: "https://gitlab.example.com/api/v4",
  CI_PROJECT_ID: "42",
  CI_PIPELINE_ID: "6",
  CI_JOB_ID: "7",
  CI_JOB_NAME: "wave 2 prod",
};

/** What Forgejo's runner sets: `GITHUB_*` and `FORGEJO_*` alike, the workflow's `name:`, no `GITHUB_WORKFLOW_REF`. */
const FORGEJO_ENV = {
  CI: "true",
  GITHUB_ACTIONS: "true",
  FORGEJO_ACTIONS: "true",
  GITHUB_REPOSITORY: "octo/hello",
  FORGEJO_REPOSITORY: "octo/hello",
  GITHUB_REF: "refs/heads/main",
  GITHUB_RUN_ID: "11",
  GITHUB_RUN_ATTEMPT: "1",
  GITHUB_WORKFLOW: "chant-wave demo",
  GITHUB_SERVER_URL: "https://codeberg.org",
  GITHUB_API_URL: "https://codeberg.org/api/v1",
};

Deno.test("runLocatorFromEnv() reads each forge's run locator", async (t) => {
  await t.step("GitHub", () => {
    expect(runLocatorFromEnv(GITHUB_ENV)).toEqual({
      forge: "github",
      apiUrl: "https://api.github.com",
      repository: "octo/hello",
      runId: "30433642",
      attempt: 2,
    });
  });
  await t.step("GitHub Enterprise, its API URL kept", () => {
    expect(
      runLocatorFromEnv({
        ...GITHUB_ENV,
        GITHUB_API_URL: "https://ghe.example/api/v3/",
      })?.apiUrl,
    ).toBe("https://ghe.example/api/v3");
  });
  await t.step("GitHub without GITHUB_API_URL or GITHUB_RUN_ATTEMPT", () => {
    const { GITHUB_API_URL: _, GITHUB_RUN_ATTEMPT: __, ...env } = GITHUB_ENV;
    expect(runLocatorFromEnv(env)).toMatchObject({
      apiUrl: "https://api.github.com",
      attempt: 1,
    });
  });
  await t.step("GitLab", () => {
    expect(runLocatorFromEnv(GITLAB_ENV)).toEqual({
      forge: "gitlab",
      apiUrl: "https://gitlab.example.com/api/v4",
      projectId: "42",
      pipelineId: "6",
      jobId: "7",
      jobName: "wave 2 prod",
    });
  });
  await t.step("Forgejo, the workflow file from the hint", () => {
    expect(
      runLocatorFromEnv(FORGEJO_ENV, { workflowFile: "demo.yml" }),
    ).toEqual({
      forge: "forgejo",
      apiUrl: "https://codeberg.org/api/v1",
      repository: "octo/hello",
      workflow: "demo.yml",
      ref: "refs/heads/main",
    });
  });
});

Deno.test("runLocatorFromEnv() finds the Forgejo workflow file where it can", async (t) => {
  await t.step("GITHUB_WORKFLOW_REF wins", () => {
    expect(
      runLocatorFromEnv({
        ...FORGEJO_ENV,
        GITHUB_WORKFLOW_REF:
          "octo/hello/.forgejo/workflows/rollout.yml@refs/heads/main",
      }, { workflowFile: "demo.yml" }),
    ).toMatchObject({ workflow: "rollout.yml" });
  });
  await t.step("GITHUB_WORKFLOW when it is a file name", () => {
    expect(
      runLocatorFromEnv({ ...FORGEJO_ENV, GITHUB_WORKFLOW: "rollout.yaml" }),
    ).toMatchObject({ workflow: "rollout.yaml" });
  });
  await t.step("no file anywhere: no locator", () => {
    expect(runLocatorFromEnv(FORGEJO_ENV)).toBeUndefined();
  });
  await t.step("no GITHUB_API_URL: the server's /api/v1", () => {
    const { GITHUB_API_URL: _, ...env } = FORGEJO_ENV;
    expect(runLocatorFromEnv(env, { workflowFile: "demo.yml" }))
      .toMatchObject({ apiUrl: "https://codeberg.org/api/v1" });
  });
});

Deno.test("runLocatorFromEnv() gives no locator it could not read back", async (t) => {
  const cases: [string, Record<string, string | undefined>][] = [
    ["outside CI", { GITHUB_REPOSITORY: "octo/hello" }],
    ["GitHub without a run id", { ...GITHUB_ENV, GITHUB_RUN_ID: undefined }],
    ["GitHub with an empty run id", { ...GITHUB_ENV, GITHUB_RUN_ID: "" }],
    ["GitHub with a bad attempt", { ...GITHUB_ENV, GITHUB_RUN_ATTEMPT: "x" }],
    ["GitLab without CI_API_V4_URL", {
      ...GITLAB_ENV,
      CI_API_V4_URL: undefined,
    }],
    ["GitLab with a path as project id", {
      ...GITLAB_ENV,
      CI_PROJECT_ID: "group/project",
    }],
    ["GitLab with a control character in the job name", {
      ...GITLAB_ENV,
      CI_JOB_NAME: "a\nb",
    }],
    ["Forgejo without a ref", {
      ...FORGEJO_ENV,
      GITHUB_REF: undefined,
      GITHUB_WORKFLOW: "x.yml",
    }],
  ];
  for (const [name, env] of cases) {
    await t.step(name, () => {
      expect(runLocatorFromEnv(env, { workflowFile: "demo.yml" }))
        .toBeUndefined();
    });
  }
});

Deno.test("runLocatorFromEnv() locators survive a JSON round trip through parseRunLocator()", () => {
  for (
    const locator of [
      runLocatorFromEnv(GITHUB_ENV),
      runLocatorFromEnv(GITLAB_ENV),
      runLocatorFromEnv(FORGEJO_ENV, { workflowFile: "demo.yml" }),
    ]
  ) {
    expect(parseRunLocator(JSON.parse(JSON.stringify(locator)))).toEqual(
      locator,
    );
  }
});

Deno.test("describeLocator() names the forge, the job and the repository", async (t) => {
  await t.step("github", () => {
    expect(describeLocator({
      forge: "github",
      apiUrl: "https://api.github.com",
      repository: "o/r",
      runId: "7",
      attempt: 2,
    })).toBe("GitHub run 7 (attempt 2) of o/r");
  });
  await t.step("gitlab", () => {
    expect(describeLocator({
      forge: "gitlab",
      apiUrl: "https://gitlab.example/api/v4",
      projectId: "42",
      pipelineId: "5",
      jobId: "101",
      jobName: "wave-1-prod",
    })).toBe('GitLab job 101 "wave-1-prod" of pipeline 5 (project 42)');
  });
  await t.step("forgejo", () => {
    expect(describeLocator({
      forge: "forgejo",
      apiUrl: "https://codeberg.org/api/v1",
      repository: "o/r",
      workflow: "tf.yml",
      ref: "refs/heads/main",
    })).toBe("Forgejo workflow tf.yml on refs/heads/main of o/r");
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { describeLocator } from "../../src/forge/run_locator_from_env.ts";

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

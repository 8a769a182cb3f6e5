// End to end through the binary against the fake forges (SPEC.md §13): a
// waiting job run again in another CI job (a GitHub re-run attempt, a GitLab
// job retried by hand) that waits again for the same plans records its own run
// locator, so `resume` restarts the newest job that waited instead of
// skipping a run "re-run since" (or a job with "a newer job of the name")
// forever; a run outside CI, which has no locator, leaves the CI job's fact
// standing.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { fakeForge } from "../_helpers/fake_forge.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const ONE = [{ name: "one", gate: "always", runs: ["eu"] }];

Deno.test("a GitHub run re-run by hand that waits again is the one resume re-runs", async () => {
  await using fake = fakeForge("github");
  await using r = await rollout(specOf(ONE));
  const attempt = (n: number) =>
    r.run(["run", ...SPEC, "--wave", "1"], {
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: "octo/hello",
      GITHUB_RUN_ID: "701",
      GITHUB_RUN_ATTEMPT: String(n),
      GITHUB_API_URL: fake.apiUrl,
    });
  expect((await attempt(1)).code).toBe(3);
  expect((await attempt(2)).code).toBe(3);
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(3);
  const facts = (await r.records("tf-wave-1"))
    .filter((record) => record.kind === "pending")
    .map((record) => (record.locator as { attempt?: number }).attempt);
  expect(facts).toEqual([1, 2]);
  fake.state.runs.set("701", { status: "completed", attempt: 2 });
  const out = await r.run([
    "approve",
    "tf",
    "tf-wave-1",
    "--by",
    "ann",
    "--resume",
  ], { GITHUB_API_URL: fake.apiUrl, GITHUB_TOKEN: fake.token });
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    "tf-wave-1 of tf: resumed: re-ran the failed jobs of run 701 (attempt 3)\n",
  );
  expect(fake.state.reruns).toEqual(["701"]);
});

Deno.test("a GitLab job retried by hand that waits again is the one resume retries", async () => {
  await using fake = fakeForge("gitlab");
  await using r = await rollout(specOf(ONE));
  const job = (id: number) =>
    r.run(["run", ...SPEC, "--wave", "1"], {
      GITLAB_CI: "true",
      CI_API_V4_URL: fake.apiUrl,
      CI_PROJECT_ID: "42",
      CI_PIPELINE_ID: "5",
      CI_JOB_ID: String(id),
      CI_JOB_NAME: "wave-1-one",
    });
  expect((await job(101)).code).toBe(3);
  expect((await job(150)).code).toBe(3);
  fake.state.jobs.push(
    { id: 101, name: "wave-1-one", status: "failed", pipeline: 5 },
    { id: 150, name: "wave-1-one", status: "failed", pipeline: 5 },
  );
  const out = await r.run([
    "approve",
    "tf",
    "tf-wave-1",
    "--by",
    "ann",
    "--resume",
  ], { CI_API_V4_URL: fake.apiUrl, GITLAB_TOKEN: fake.token });
  expect(out.code).toBe(0);
  expect(out.stderr).toMatch(
    /^tf-wave-1 of tf: resumed: retried job 150 as job \d+$/m,
  );
  expect(fake.state.retries).toEqual([150]);
});

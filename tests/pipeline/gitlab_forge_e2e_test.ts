// The rendered GitLab pipeline under gitlab-ci-local's shell executor with a
// forge gate (SPEC.md §12.1, §13.1): wave 1, a whole wave, needs 2 approvers
// and no self-approval, and eve pushed the change. Its job waits, ends green
// and writes a child pipeline of two manual approve jobs and the wave's job
// again. ann plays the first: it counts (1 of 2) and passes. eve, the
// change's author, plays the second: hers does not count, so it fails and
// says another approver must retry it. bob retries it: ann's play, confirmed
// through a fake GitLab (real HTTP), and his make 2 of 2, and the wave's job
// confirms both plays through the API and applies. Job and pipeline ids are
// fixed, as GitLab gives them, so the fake knows each job its API names.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { fakeForge } from "../_helpers/fake_forge.ts";
import { demoRepo, runGitlab } from "../_helpers/gitlab_runner.ts";

const PIPELINE = 77;
const JOB_URL = "https://gitlab.example/octo/hello/-/jobs";
const CHILD = ".chant/waves/e2e/wave-1.gitlab-ci.yml";

function specText(bin: string, world: string): string {
  return JSON.stringify(
    {
      name: "e2e",
      plan: ["sh", "examples/tools/plan.sh", "{target}", "{plan}"],
      apply: ["sh", "examples/tools/apply.sh", "{target}", "{plan}"],
      pipeline: {
        variables: { DEMO_WORLD: world },
        install: `export PATH="${bin}:$PATH"`,
      },
      waves: [{
        name: "prod",
        gate: "always",
        runs: ["eu"],
        approval: "forge",
        approvers: { required: 2, selfApproval: false },
      }],
    },
    null,
    2,
  );
}

Deno.test({
  name:
    "renderGitlab() under gitlab-ci-local with a forge gate: a click per approver, the author's does not count, the forge confirms the others'",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using gitlab = fakeForge("gitlab", { repository: "42" });
  const demo = await demoRepo({ "examples/desired/eu": "eu v2\n" });
  await using repo = demo.repo;
  const { bin, world } = demo;
  const spec = specText(bin, world);
  const parsed = parseSpec(spec, "waves.json");
  const [file] = renderGitlab(
    parsed,
    expandJobs(parsed, "waves.json"),
    "waves.json",
  );
  await repo.commit("base", { "waves.json": spec });
  await repo.commit("head", { [file.path]: file.text });
  const remote = join(repo.root, "remote.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", remote);
  await repo.git("remote", "add", "origin", remote);
  await repo.git("push", "-q", "origin", "main");
  /** Runs `jobs` of `pipelineFile` as `login`, the one GitLab runs with id `jobId`. */
  const gcl = (
    pipelineFile: string,
    job: string,
    login: string,
    jobId: number,
    manual = false,
  ) =>
    runGitlab(repo.path, {
      file: pipelineFile,
      env: { ...repo.env, PATH: "/usr/bin:/bin" },
      jobs: [job],
      manual: manual ? [job] : [],
      variables: {
        CI_API_V4_URL: gitlab.apiUrl,
        CI_PROJECT_ID: "42",
        GITLAB_TOKEN: gitlab.token,
        CI_PIPELINE_ID: String(PIPELINE),
        CI_JOB_ID: String(jobId),
        CI_JOB_URL: `${JOB_URL}/${jobId}`,
        GITLAB_USER_LOGIN: login,
      },
    });
  /** The forge now knows job `id` as it ended. */
  const known = (id: number, name: string, status: string, user: string) =>
    gitlab.state.jobs.push({ id, name, status, pipeline: PIPELINE, user });
  /** Plays an approve job: GitLab knows it running, then as it ended. */
  const play = async (job: string, login: string, jobId: number) => {
    known(jobId, job, "running", login);
    const run = await gcl(CHILD, job, login, jobId, true);
    const ended = gitlab.state.jobs.find((candidate) =>
      candidate.id === jobId
    )!;
    ended.status = run.passed.includes(job) ? "success" : "failed";
    return run;
  };
  let digest = "";

  await t.step(
    "eve's push: the wave waits and its job ends green, its child holding two approve jobs",
    async () => {
      const run = await gcl(file.path, "wave-1-prod", "eve", 101);
      expect(run.passed).toEqual(["wave-1-prod"]);
      const said = run.lines.get("wave-1-prod")!;
      digest = said.join("\n").match(
        /planned 1 run of wave 1 "prod": (sha256:[0-9a-f]{64})/,
      )?.[1] ?? "";
      expect(digest).not.toBe("");
      expect(said).toContain(
        `child pipeline ${CHILD}: approve jobs 1 to 2, then the wave's jobs`,
      );
      known(101, "wave-1-prod", "success", "eve");
    },
  );

  await t.step("ann's play counts: 1 of 2, and the job passes", async () => {
    const run = await play("wave-1-prod-approve-1", "ann", 201);
    expect(run.passed).toEqual(["wave-1-prod-approve-1"]);
    const said = run.lines.get("wave-1-prod-approve-1")!;
    for (
      const line of [
        `approved e2e-wave-1 of e2e for ${digest} by ann`,
        `note: the gate's CI job counts it once the forge confirms ${JOB_URL}/201`,
        `1 of 2 approvals of ${digest}: ann; waiting for another approver`,
        "approve on GitLab: play the manual job wave-1-prod-approve-2 in this pipeline",
      ]
    ) expect(said).toContain(line);
  });

  await t.step(
    "the author's play of the second does not count: it fails, saying who must retry it",
    async () => {
      const run = await play("wave-1-prod-approve-2", "eve", 202);
      expect(run.failed).toEqual([{ job: "wave-1-prod-approve-2", code: 3 }]);
      const said = run.lines.get("wave-1-prod-approve-2")!;
      expect(said.find((line) => line.startsWith("warning:"))).toContain(
        "warning: this approval will not count: started the job that ran this change (the rules at ",
      );
      for (
        const line of [
          `1 of 2 approvals of ${digest}: ann; not counted: eve (started the job that ran this change); waiting for another approver`,
          "error: wave-1-prod-approve-2 passes once 2 approvals count; retry it as an approver other than eve",
        ]
      ) expect(said).toContain(line);
      await expect(Deno.stat(world)).rejects.toThrow(Deno.errors.NotFound);
    },
  );

  await t.step(
    "bob's retry passes, and the wave's job confirms both plays and applies",
    async () => {
      const run = await play("wave-1-prod-approve-2", "bob", 203);
      expect(run.passed).toEqual(["wave-1-prod-approve-2"]);
      const applied = await gcl(CHILD, "wave-1-prod", "eve", 204);
      expect(applied.passed).toEqual(["wave-1-prod"]);
      expect(applied.lines.get("wave-1-prod")).toContain(
        `gate e2e-wave-1: approved by ann, bob for ${digest} (the policy is "always")`,
      );
      expect(await Deno.readTextFile(join(world, "eu"))).toBe("eu v2\n");
      const asked = gitlab.requests.map((r) => `${r.method} ${r.path}`);
      for (const id of [201, 202, 203]) {
        expect(asked).toContain(`GET /projects/42/jobs/${id}`);
      }
      expect(gitlab.state.retries).toEqual([]);
      expect(gitlab.protocolErrors).toEqual([]);
    },
  );
});

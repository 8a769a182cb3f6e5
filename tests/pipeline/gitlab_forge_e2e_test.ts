// The rendered GitLab pipeline under gitlab-ci-local's shell executor with a
// forge gate (SPEC.md §12.1, §13.1): wave 1 needs 2 approvers and no
// self-approval, and eve pushed the change. Its job waits (exit 3, allowed)
// and blocks the pipeline at the manual approve job. Played by ann it counts
// (1 of 2); played a second time by the change's author eve (GITLAB_USER_LOGIN)
// it does not, so nothing resumes and the job, retried by hand, still waits
// with a tally naming why. Played by bob, the job is retried through a fake
// GitLab (real HTTP), confirms each play through it (the pipeline's manual
// job, played by its approver, succeeded) and applies. Job and pipeline ids
// are fixed, as GitLab gives them, so the fake knows each job its API names.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { BINARY } from "../_helpers/binary.ts";
import { fakeForge } from "../_helpers/fake_forge.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { gitlabCiLocal } from "./_oracles.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PIPELINE = 77;
const JOB_URL = "https://gitlab.example/octo/hello/-/jobs";

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
    "renderGitlab() under gitlab-ci-local with a forge gate: the author's play of the approve job does not count, two writers' do",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using gitlab = fakeForge("gitlab", { repository: "42" });
  const files: Record<string, string> = {
    ".gitignore": ".chant/\n.gitlab-ci-local/\n",
    "examples/desired/eu": "eu v2\n",
  };
  for (const tool of ["plan.sh", "apply.sh"]) {
    files[`examples/tools/${tool}`] = await Deno.readTextFile(
      join(ROOT, "examples/tools", tool),
    );
  }
  await using repo = await tempRepo(files);
  const bin = join(repo.root, "bin");
  const world = join(repo.root, "world");
  await Deno.mkdir(bin);
  await Deno.symlink(BINARY, join(bin, "chant-wave"));
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
  /** Runs jobs as `login`, the one GitLab runs with id `jobId` in pipeline 77. */
  const gcl = async (args: string[], login: string, jobId: number) => {
    const out = await gitlabCiLocal(
      [
        "--file",
        file.path,
        "--shell-executor-no-image",
        "--shell-isolation",
        "--no-artifacts-to-source",
        "--no-color",
        "--ignore-predefined-vars",
        "CI_API_V4_URL,CI_PROJECT_ID,GITLAB_USER_LOGIN,CI_PIPELINE_ID,CI_JOB_ID,CI_JOB_URL",
        ...[
          `CI_API_V4_URL=${gitlab.apiUrl}`,
          "CI_PROJECT_ID=42",
          `GITLAB_TOKEN=${gitlab.token}`,
          `CI_PIPELINE_ID=${PIPELINE}`,
          `CI_JOB_ID=${jobId}`,
          `CI_JOB_URL=${JOB_URL}/${jobId}`,
          `GITLAB_USER_LOGIN=${login}`,
        ].flatMap((variable) => ["--variable", variable]),
        ...args,
      ],
      repo.path,
      { ...repo.env, PATH: `${bin}:/usr/bin:/bin` },
    );
    return out.stdout + out.stderr;
  };
  /** The forge now knows job `id` as it ended. */
  const known = (id: number, name: string, status: string, user: string) =>
    gitlab.state.jobs.push({ id, name, status, pipeline: PIPELINE, user });
  const waveJob = "wave-1-prod";
  const approveJob = "wave-1-prod-approve";
  /** Plays the approve job: GitLab knows it running, then as it ended. */
  const play = async (login: string, jobId: number) => {
    known(jobId, approveJob, "running", login);
    const log = await gcl(["--manual", approveJob, approveJob], login, jobId);
    const job = gitlab.state.jobs.find((job) => job.id === jobId)!;
    job.status = /PASS\s+wave-1-prod-approve/.test(log) ? "success" : "failed";
    return log;
  };
  let digest = "";

  await t.step(
    "eve's push: the wave waits, blocked at its approve job",
    async () => {
      const log = await gcl([waveJob], "eve", 101);
      expect(log).toMatch(/wave-1-prod\s+finished in .* WARN 3/);
      digest =
        log.match(/planned 1 run of wave 1 "prod": (sha256:[0-9a-f]{64})/)
          ?.[1] ?? "";
      expect(digest).not.toBe("");
      known(101, waveJob, "failed", "eve");
    },
  );

  await t.step("ann's play counts: 1 of 2, nothing resumes yet", async () => {
    const log = await play("ann", 201);
    expect(log).toMatch(/PASS\s+wave-1-prod-approve/);
    expect(log).toContain(`approved e2e-wave-1 of e2e for ${digest} by ann`);
    expect(log).toContain(
      `note: the gate's CI job counts it once the forge confirms ${JOB_URL}/201`,
    );
    expect(log).toContain(
      `1 of 2 approvals of ${digest}: ann; waiting for another approver\n`,
    );
    expect(log).not.toContain("resumed");
  });

  await t.step(
    "the author's second play does not count: nothing resumes, and the retried job still waits, saying why",
    async () => {
      const why = "eve (started the job that ran this change)";
      const log = await play("eve", 202);
      expect(log).toMatch(/PASS\s+wave-1-prod-approve/);
      expect(log).toContain(
        "warning: this approval will not count: started the job that ran this change (the rules at ",
      );
      expect(log).toContain(
        `1 of 2 approvals of ${digest}: ann; not counted: ${why}; waiting for another approver`,
      );
      expect(log).not.toContain("resumed");
      expect(gitlab.state.retries).toEqual([]);
      const retried = await gcl([waveJob], "eve", 102);
      expect(retried).toMatch(/wave-1-prod\s+finished in .* WARN 3/);
      expect(retried).toContain(
        `1 of 2 approvals of ${digest}: ann; not counted: ${why}`,
      );
      await expect(Deno.stat(world)).rejects.toThrow(Deno.errors.NotFound);
      known(102, waveJob, "failed", "eve");
    },
  );

  await t.step(
    "bob's play resumes the job that waited, which confirms both plays and applies",
    async () => {
      const log = await play("bob", 203);
      expect(log).toMatch(
        /e2e-wave-1 of e2e: resumed: retried job 102 as job \d+/,
      );
      expect(gitlab.state.retries).toEqual([102]);
      const retry = gitlab.state.jobs.find((job) => job.status === "pending")!;
      const applied = await gcl([waveJob], "eve", retry.id);
      expect(applied).toMatch(/PASS\s+wave-1-prod\b/);
      expect(applied).toContain(
        `gate e2e-wave-1: approved by ann, bob for ${digest}`,
      );
      expect(await Deno.readTextFile(join(world, "eu"))).toBe("eu v2\n");
      const asked = gitlab.requests.map((r) => `${r.method} ${r.path}`);
      for (const id of [201, 202, 203]) {
        expect(asked).toContain(`GET /projects/42/jobs/${id}`);
      }
      expect(gitlab.protocolErrors).toEqual([]);
    },
  );
});

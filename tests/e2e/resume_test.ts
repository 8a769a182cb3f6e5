// End to end through the binary against the fake forges (SPEC.md §13): a wave
// that waits in CI records its job's run locator; once approved, `resume`
// restarts exactly that job on GitHub, GitLab and Forgejo, skips a run already
// re-run, a newer job and an unfinished run, says `no-token` (exit 1) without a
// token; `approve --resume` approves and restarts in one go.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import { type Rollout, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const WAVES = [
  { name: "one", gate: "always", runs: ["eu"] },
  { name: "two", gate: "always", runs: ["us"] },
];

/** The CI variables of a job of wave `k` on a fake forge. */
function ciEnv(fake: FakeForge, k: number): Record<string, string> {
  if (fake.forge === "github") {
    return {
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: "octo/hello",
      GITHUB_RUN_ID: String(700 + k),
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_API_URL: fake.apiUrl,
    };
  }
  if (fake.forge === "gitlab") {
    return {
      GITLAB_CI: "true",
      CI_API_V4_URL: fake.apiUrl,
      CI_PROJECT_ID: "42",
      CI_PIPELINE_ID: "5",
      CI_JOB_ID: String(100 + k),
      CI_JOB_NAME: `wave-${k}-${WAVES[k - 1].name}`,
      CI_PIPELINE_URL: "https://gitlab.example/octo/hello/-/pipelines/5",
    };
  }
  return {
    FORGEJO_ACTIONS: "true",
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_REF: "refs/heads/main",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_RUN_ID: String(700 + k),
  };
}

/** What a person (or the scheduled job) sets to resume: the API and a token. */
function forgeEnv(fake: FakeForge): Record<string, string> {
  return fake.forge === "gitlab"
    ? { CI_API_V4_URL: fake.apiUrl, GITLAB_TOKEN: fake.token }
    : { GITHUB_API_URL: fake.apiUrl, GITHUB_TOKEN: fake.token };
}

/** Both waves wait in CI on `fake`; the forge knows their finished jobs. */
async function waitBoth(r: Rollout, fake: FakeForge): Promise<void> {
  for (const k of [1, 2]) {
    const out = await r.run(["run", ...SPEC, "--wave", String(k)], {
      ...ciEnv(fake, k),
    });
    expect(out.code).toBe(3);
  }
  fake.state.runs.set("701", { status: "completed", attempt: 1 });
  fake.state.runs.set("702", { status: "completed", attempt: 1 });
  fake.state.jobs.push(
    { id: 101, name: "wave-1-one", status: "failed", pipeline: 5 },
    { id: 102, name: "wave-2-two", status: "failed", pipeline: 5 },
  );
  fake.state.workflows.set("tf.yml", ["refs/heads/main"]);
}

function restarted(fake: FakeForge): unknown[] {
  return fake.forge === "github"
    ? fake.state.reruns
    : fake.forge === "gitlab"
    ? fake.state.retries
    : fake.state.dispatches;
}

const FIRST_JOB = {
  github: ["701"],
  gitlab: [101],
  forgejo: [{ workflow: "tf.yml", ref: "refs/heads/main" }],
};

const RESUMED = {
  github: "re-ran the failed jobs of run 701 (attempt 2)",
  gitlab: "retried job 101 as job 103",
  forgejo: "dispatched workflow tf.yml on refs/heads/main",
};

for (const forge of ["github", "gitlab", "forgejo"] as const) {
  Deno.test(`resume restarts exactly the approved gate's job on ${forge}`, async (t) => {
    await using fake = fakeForge(forge);
    await using r = await rollout(specOf(WAVES));
    await waitBoth(r, fake);

    await t.step("the pending fact carries the job's run locator", async () => {
      const [pending] = await r.records("tf-wave-1");
      expect(pending.kind).toBe("pending");
      expect(pending.locator).toMatchObject({ forge, apiUrl: fake.apiUrl });
    });

    await t.step("before any approval nothing restarts", async () => {
      const out = await r.run(["resume", ...SPEC], forgeEnv(fake));
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        /^tf-wave-1 of tf: not-approved: gate "tf-wave-1" has no approval for sha256:[0-9a-f]{64}$/m,
      );
      expect(out.stderr.trimEnd().split("\n").at(-1)).toBe(
        "0 resumed, 2 still waiting for an approval",
      );
      expect(fake.requests).toEqual([]);
    });

    await t.step("approving wave 1 resumes its job, and only its", async () => {
      const approve = await r.run([
        "approve",
        "tf",
        "tf-wave-1",
        "--by",
        "ann",
      ]);
      expect(approve.code).toBe(0);
      const out = await r.run(["resume", ...SPEC], forgeEnv(fake));
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `tf-wave-1 of tf: resumed: ${RESUMED[forge]}\n`,
      );
      expect(out.stderr.trimEnd().split("\n").at(-1)).toBe(
        "1 resumed, 1 still waiting for an approval",
      );
      expect(restarted(fake)).toEqual(FIRST_JOB[forge]);
      expect(fake.protocolErrors).toEqual([]);
    });
  });
}

Deno.test("resume skips a GitHub run already re-run, and one not completed", async (t) => {
  await using fake = fakeForge("github");
  await using r = await rollout(specOf(WAVES.slice(0, 1)));
  const first = await r.run(["run", ...SPEC, "--wave", "1"], ciEnv(fake, 1));
  expect(first.code).toBe(3);
  expect((await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"])).code)
    .toBe(0);
  const cases = [
    {
      name: "a run still in progress",
      run: { status: "in_progress", attempt: 1 },
      line: "skipped: run 701 is in_progress, not completed",
    },
    {
      name: "a run re-run since the wave waited",
      run: { status: "completed", attempt: 2 },
      line: "skipped: run 701 was re-run since (attempt 2)",
    },
  ];
  for (const { name, run, line } of cases) {
    await t.step(name, async () => {
      fake.state.runs.set("701", run);
      const out = await r.run(["resume", ...SPEC], forgeEnv(fake));
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(`tf-wave-1 of tf: ${line}\n`);
      expect(fake.state.reruns).toEqual([]);
    });
  }
});

Deno.test("resume skips a GitLab job with a newer job of its name, and an unfinished one", async (t) => {
  await using fake = fakeForge("gitlab");
  await using r = await rollout(specOf(WAVES.slice(0, 1)));
  expect((await r.run(["run", ...SPEC, "--wave", "1"], ciEnv(fake, 1))).code)
    .toBe(3);
  expect((await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"])).code)
    .toBe(0);
  await t.step("a job that has not finished", async () => {
    fake.state.jobs.push({
      id: 101,
      name: "wave-1-one",
      status: "running",
      pipeline: 5,
    });
    const out = await r.run(["resume", ...SPEC], forgeEnv(fake));
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "tf-wave-1 of tf: skipped: job 101 has not finished (running)\n",
    );
  });
  await t.step("a newer job of the name (retried by hand)", async () => {
    fake.state.jobs[0].status = "failed";
    fake.state.jobs.push({
      id: 150,
      name: "wave-1-one",
      status: "success",
      pipeline: 5,
    });
    const out = await r.run(["resume", ...SPEC], forgeEnv(fake));
    expect(out.stderr).toContain(
      "tf-wave-1 of tf: skipped: a newer job 150 of the name exists\n",
    );
    expect(fake.state.retries).toEqual([]);
  });
});

Deno.test("resume skips a gate whose wave ran since the approval", async () => {
  await using fake = fakeForge("forgejo");
  await using r = await rollout(specOf(WAVES.slice(0, 1)));
  expect((await r.run(["run", ...SPEC, "--wave", "1"], ciEnv(fake, 1))).code)
    .toBe(3);
  expect((await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  const out = await r.run(["resume", ...SPEC], forgeEnv(fake));
  expect(out.code).toBe(0);
  expect(out.stderr).toMatch(
    /^tf-wave-1 of tf: skipped: a job of the gate ran since the approval \(claim at \S+\)$/m,
  );
  expect(fake.requests).toEqual([]);
});

Deno.test("resume without a token says no-token and exits 1; --dry-run asks the forge nothing", async (t) => {
  await using fake = fakeForge("github");
  await using r = await rollout(specOf(WAVES.slice(0, 1)));
  expect((await r.run(["run", ...SPEC, "--wave", "1"], ciEnv(fake, 1))).code)
    .toBe(3);
  expect((await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"])).code)
    .toBe(0);
  fake.state.runs.set("701", { status: "completed", attempt: 1 });
  await t.step("no token", async () => {
    const out = await r.run(["resume"], { GITHUB_API_URL: fake.apiUrl });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      "tf-wave-1 of tf: no-token: no github token: set CHANT_WAVE_FORGE_TOKEN or GITHUB_TOKEN or GH_TOKEN " +
        '(see "chant-wave help resume")\n' +
        "0 resumed, 0 still waiting for an approval\n",
    );
  });
  await t.step("a dry run", async () => {
    const out = await r.run(["resume", "--dry-run"], forgeEnv(fake));
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      "tf-wave-1 of tf: would-resume: would restart GitHub run 701 (attempt 1) of octo/hello\n" +
        "1 would be resumed (dry run), 0 still waiting for an approval\n",
    );
    expect(fake.requests).toEqual([]);
  });
  await t.step("--json", async () => {
    const out = await r.run(["resume", "--json"], forgeEnv(fake));
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.gates[0].planDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result).toEqual({
      exitCode: 0,
      resumed: 1,
      waiting: 0,
      later: 0,
      gates: [{
        name: "tf",
        gate: "tf-wave-1",
        status: "resumed",
        planDigest: result.gates[0].planDigest,
        approvedBy: "ann",
        job: "GitHub run 701 (attempt 1) of octo/hello",
        detail: "re-ran the failed jobs of run 701 (attempt 2)",
      }],
    });
    expect(fake.requests.map((request) => request.headers.get("authorization")))
      .toEqual([`Bearer ${fake.token}`, `Bearer ${fake.token}`]);
    expect(out.stderr).not.toContain(fake.token);
  });
});

Deno.test("approve --resume records the approval, then restarts the job that waited", async (t) => {
  await using fake = fakeForge("github");
  await using r = await rollout(specOf(WAVES.slice(0, 1)));
  expect((await r.run(["run", ...SPEC, "--wave", "1"], ciEnv(fake, 1))).code)
    .toBe(3);
  fake.state.runs.set("701", { status: "completed", attempt: 1 });
  await t.step(
    "without a token the approval stands and it exits 1",
    async () => {
      const out = await r.run(
        ["approve", "tf", "tf-wave-1", "--by", "ann", "--resume"],
        { GITHUB_API_URL: fake.apiUrl },
      );
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(/^approved tf-wave-1 of tf for sha256:/);
      expect(out.stderr).toContain("tf-wave-1 of tf: no-token: ");
      const kinds = (await r.records("tf-wave-1")).map((record) => record.kind);
      expect(kinds).toEqual(["pending", "approval"]);
    },
  );
  await t.step("with a token the job goes on", async () => {
    const out = await r.run(
      ["approve", "tf", "tf-wave-1", "--by", "bob", "--resume", "--json"],
      forgeEnv(fake),
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "tf-wave-1 of tf: resumed: re-ran the failed jobs of run 701 (attempt 2)\n",
    );
    expect(fake.state.reruns).toEqual(["701"]);
    const json = JSON.parse(out.stdout);
    expect(json.record).toMatchObject({ kind: "approval", by: "bob" });
    expect(json.resume).toMatchObject({ resumed: 1, waiting: 0 });
  });
});

Deno.test("resume says no-job for a malformed locator and for another repository's job", async (t) => {
  await using fake = fakeForge("github");
  await using r = await rollout(specOf(WAVES.slice(0, 1)));
  expect((await r.run(["run", ...SPEC, "--wave", "1"], ciEnv(fake, 1))).code)
    .toBe(3);
  expect((await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"])).code)
    .toBe(0);
  fake.state.runs.set("701", { status: "completed", attempt: 1 });
  await t.step(
    "a job of another repository than the scheduled job's",
    async () => {
      const out = await r.run(["resume"], {
        ...forgeEnv(fake),
        GITHUB_REPOSITORY: "octo/other",
      });
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        "tf-wave-1 of tf: no-job: recorded for another repository (octo/hello)\n",
      );
      expect(fake.requests).toEqual([]);
    },
  );
  await t.step("a locator edited into a bad one", async () => {
    const dir = `${r.path}/.chant/ledger/gates/tf/tf-wave-1`;
    const [file] = [...Deno.readDirSync(dir)].map((entry) => entry.name)
      .filter((name) => name.includes("-pending-"));
    const record = JSON.parse(await Deno.readTextFile(`${dir}/${file}`));
    record.locator.runId = "701/../../x";
    await Deno.writeTextFile(`${dir}/${file}`, JSON.stringify(record));
    const out = await r.run(["resume"], forgeEnv(fake));
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `warning: ledger: ${dir}/${file}: run locator: "runId" must be a run id (digits); it is dropped\n`,
    );
    expect(out.stderr).toContain(
      "tf-wave-1 of tf: no-job: the pending fact names no CI job (recorded outside CI, or its run locator was dropped)\n",
    );
    expect(fake.requests).toEqual([]);
  });
});

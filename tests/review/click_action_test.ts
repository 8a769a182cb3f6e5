// The click path's confirmation against a fake GitHub (real HTTP, SPEC.md
// §13.1): a dispatch of the approve workflow by a writer confirms the record
// naming it; one by a bot, by someone else, with another digest, an unfinished
// or failed one, or a record naming a run the forge does not know, does not.
// On GitLab the manual approve job of this pipeline counts; on Forgejo, whose
// runs never show their run-name, a dispatch is refused with that reason.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { clickForge } from "../../src/forge/click_forge.ts";
import { approvalRecord } from "../../src/gate/records.ts";
import { clickAction } from "../../src/review/click_action.ts";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";

const DIGEST = `sha256:${"a".repeat(64)}`;
const OTHER = `sha256:${"b".repeat(64)}`;
const TITLE = `chant-wave tf: approve wave 2 ${DIGEST}`;

function record(by: string, via?: string, digest = DIGEST) {
  return approvalRecord({
    name: "tf",
    gate: "tf-wave-2",
    planDigest: digest,
    by,
    ...(via ? { via } : {}),
  }, { id: "a1", now: 0 });
}

function kind(fake: FakeForge, defaultBranch = "master") {
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_TOKEN: fake.token,
    GITHUB_REPOSITORY: "octo/hello",
  };
  let slept = 0;
  return {
    action: clickAction({
      name: "tf",
      wave: { k: 2, name: "prod" },
      forge: () => clickForge("github", env),
      sleep: () => {
        slept++;
        return Promise.resolve();
      },
      defaultBranch: () => Promise.resolve(defaultBranch),
    }),
    slept: () => slept,
  };
}

const VIA = "https://github.com/octo/hello/actions/runs/7";
const DISPATCH = {
  status: "completed",
  attempt: 1,
  conclusion: "success",
  event: "workflow_dispatch",
  path: ".github/workflows/tf.approve.yml",
  title: TITLE,
  actor: "ann",
};

Deno.test("clickAction() confirms a dispatch of the approve workflow by its approver", async () => {
  await using fake = fakeForge("github");
  fake.state.runs.set("7", { ...DISPATCH });
  const { action } = kind(fake);
  expect(await action.confirm(record("Ann", VIA))).toEqual({
    confirmed: true,
    login: "ann",
  });
  expect(await action.confirm(record("ann"))).toBeUndefined();
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("clickAction() refuses what the forge does not vouch for", async (t) => {
  const cases = [
    {
      name: "a bot's dispatch",
      run: { ...DISPATCH, actor: "github-actions[bot]", bot: true },
      by: "github-actions[bot]",
      why: "run 7: github-actions[bot] is a bot",
    },
    {
      name: "another login's dispatch",
      run: { ...DISPATCH, actor: "mallory" },
      by: "ann",
      why: "run 7: mallory started it, not ann",
    },
    {
      name: "a re-run by someone else",
      run: { ...DISPATCH, triggeringActor: "mallory" },
      by: "ann",
      why: "run 7: mallory started it, not ann",
    },
    {
      name: "a run that asked for another digest",
      run: { ...DISPATCH, title: `chant-wave tf: approve wave 2 ${OTHER}` },
      by: "ann",
      why:
        `run 7 asked for "chant-wave tf: approve wave 2 ${OTHER}", not "${TITLE}"`,
    },
    {
      name: "a run for another wave",
      run: { ...DISPATCH, title: `chant-wave tf: approve wave 3 ${DIGEST}` },
      by: "ann",
      why:
        `run 7 asked for "chant-wave tf: approve wave 3 ${DIGEST}", not "${TITLE}"`,
    },
    {
      name: "a push run, not a dispatch",
      run: { ...DISPATCH, event: "push" },
      by: "ann",
      why: "run 7 is not a dispatch of tf.approve.yml",
    },
    {
      name: "a dispatch on another branch, whose copy of the workflow it runs",
      run: { ...DISPATCH, branch: "mallory-branch" },
      by: "ann",
      why:
        'run 7 ran on the branch "mallory-branch", not master: a dispatch runs its branch\'s copy of tf.approve.yml',
    },
    {
      name: "a failed run",
      run: { ...DISPATCH, conclusion: "failure" },
      by: "ann",
      why: "run 7 did not succeed",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using fake = fakeForge("github");
      fake.state.runs.set("7", c.run);
      expect(await kind(fake).action.confirm(record(c.by, VIA))).toEqual({
        confirmed: false,
        why: c.why,
      });
    });
  }
  await t.step("a run the forge does not know", async () => {
    await using fake = fakeForge("github");
    expect(await kind(fake).action.confirm(record("ann", VIA))).toEqual({
      confirmed: false,
      why: "it names run 7, which the forge does not know",
    });
  });
  await t.step("a dispatch by the pipeline's own token", async () => {
    await using fake = fakeForge("github");
    fake.state.runs.set("7", { ...DISPATCH });
    fake.state.tokenUser = "ann";
    expect(await kind(fake).action.confirm(record("ann", VIA))).toEqual({
      confirmed: false,
      why: "run 7: the pipeline's own token started it",
    });
  });
  await t.step("a via that names no run", async () => {
    await using fake = fakeForge("github");
    expect(
      await kind(fake).action.confirm(record("ann", "https://evil.example/x")),
    ).toEqual({
      confirmed: false,
      why: "its via names no run or job of the forge",
    });
  });
});

Deno.test("clickAction() asks again, boundedly, while the run still finishes", async () => {
  await using fake = fakeForge("github");
  fake.state.runs.set("7", { ...DISPATCH, status: "in_progress" });
  const { action, slept } = kind(fake);
  expect(await action.confirm(record("ann", VIA))).toEqual({
    confirmed: false,
    why: "run 7 did not succeed",
  });
  expect(slept()).toBe(9);
});

function gitlabKind(fake: FakeForge, pipelineId = "6") {
  const env = {
    GITLAB_CI: "true",
    CI_API_V4_URL: fake.apiUrl,
    GITLAB_TOKEN: fake.token,
    CI_PROJECT_ID: "42",
  };
  return clickAction({
    name: "tf",
    wave: { k: 2, name: "prod" },
    pipelineId,
    forge: () => clickForge("gitlab", env),
    sleep: () => Promise.resolve(),
  });
}

const JOB_VIA = "https://gitlab.example/g/p/-/jobs/70";

Deno.test("clickAction() on GitLab confirms the wave's approve job of this pipeline, played by its approver", async (t) => {
  const job = {
    id: 70,
    name: "wave-2-prod-approve-2",
    status: "success",
    pipeline: 6,
    user: "ann",
  };
  await t.step("played by ann in this pipeline", async () => {
    await using fake = fakeForge("gitlab");
    fake.state.jobs.push({ ...job });
    expect(await gitlabKind(fake).confirm(record("ann", JOB_VIA))).toEqual({
      confirmed: true,
      login: "ann",
    });
    expect(fake.protocolErrors).toEqual([]);
  });
  const cases = [
    {
      name: "another pipeline's job",
      job: { ...job, pipeline: 5 },
      why: "job 70 belongs to pipeline 5, not to this one",
    },
    {
      name: "another wave's job",
      job: { ...job, name: "wave-3-eu-approve-1" },
      why: "job 70 is wave-3-eu-approve-1, not wave-2-prod-approve-<i>",
    },
    {
      name: "a job of the wave not numbered as an approve job",
      job: { ...job, name: "wave-2-prod-approve" },
      why: "job 70 is wave-2-prod-approve, not wave-2-prod-approve-<i>",
    },
    {
      name: "played by someone else",
      job: { ...job, user: "mallory" },
      why: "job 70: mallory started it, not ann",
    },
    {
      name: "played by a project token's bot",
      job: { ...job, user: "project_42_bot_3f2a" },
      why: "job 70: project_42_bot_3f2a is a bot",
    },
    {
      name: "a job that failed",
      job: { ...job, status: "failed" },
      why: "job 70 did not succeed",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using fake = fakeForge("gitlab");
      fake.state.jobs.push(c.job);
      expect(await gitlabKind(fake).confirm(record("ann", JOB_VIA))).toEqual({
        confirmed: false,
        why: c.why,
      });
    });
  }
  await t.step("played with the pipeline's own token", async () => {
    await using fake = fakeForge("gitlab");
    fake.state.jobs.push({ ...job });
    fake.state.tokenUser = "ann";
    expect(await gitlabKind(fake).confirm(record("ann", JOB_VIA))).toEqual({
      confirmed: false,
      why: "job 70: the pipeline's own token started it",
    });
  });
  await t.step("a job the forge does not know", async () => {
    await using fake = fakeForge("gitlab");
    expect(await gitlabKind(fake).confirm(record("ann", JOB_VIA))).toEqual({
      confirmed: false,
      why: "it names job 70, which the forge does not know",
    });
  });
});

Deno.test("clickAction() on Forgejo refuses a dispatch it cannot confirm, saying why", async (t) => {
  const env = (fake: FakeForge) => ({
    FORGEJO_ACTIONS: "true",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_TOKEN: fake.token,
    GITHUB_REPOSITORY: "octo/hello",
  });
  const ask = (fake: FakeForge, by: string) =>
    clickAction({
      name: "tf",
      wave: { k: 2, name: "prod" },
      forge: () => clickForge("forgejo", env(fake)),
      sleep: () => Promise.resolve(),
    }).confirm(record(by, "https://forgejo.example/octo/hello/actions/runs/8"));
  const dispatch = {
    ...DISPATCH,
    path: ".forgejo/workflows/tf.approve.yml",
    title: "chant-wave tf approve",
    inputs: { wave: "2", digest: DIGEST },
  };
  for (const shape of ["ActionRun", "RepoActionRun"] as const) {
    await t.step(`a writer's dispatch (${shape})`, async () => {
      await using fake = fakeForge("forgejo", { forgejoRuns: shape });
      fake.state.runs.set("8", { ...dispatch });
      expect(await ask(fake, "ann")).toEqual({
        confirmed: false,
        why:
          "run 8: a Forgejo run is titled with its workflow's name, not with its run-name, so the wave and digest it asked for cannot be confirmed",
      });
      expect(fake.requests.map((r) => [r.path, r.query])).toEqual([
        ["/repos/octo/hello/actions/runs", { run_number: "8" }],
        ["/user", {}],
      ]);
      expect(fake.protocolErrors).toEqual([]);
    });
  }
  await t.step("the runner's own user's dispatch", async () => {
    await using fake = fakeForge("forgejo");
    fake.state.runs.set("8", { ...dispatch, actor: "forgejo-actions" });
    expect(await ask(fake, "forgejo-actions")).toEqual({
      confirmed: false,
      why: "run 8: forgejo-actions is a bot",
    });
  });
  await t.step("a run the forge does not know", async () => {
    await using fake = fakeForge("forgejo");
    expect(await ask(fake, "ann")).toEqual({
      confirmed: false,
      why: "it names run 8, which the forge does not know",
    });
    expect(fake.protocolErrors).toEqual([]);
  });
});

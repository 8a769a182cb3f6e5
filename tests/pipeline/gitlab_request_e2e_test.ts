// The rendered GitLab pipeline under gitlab-ci-local's shell executor in a
// merge request pipeline (SPEC.md §18): it runs the plan job and no wave job;
// the plan job plans both waves at the merge request's head, keeps one note on
// the merge request of a fake GitLab (real HTTP) and posts a status per wave;
// run again for the next push, it edits that note. Nothing is applied.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { fakeForge } from "../_helpers/fake_forge.ts";
import { demoRepo, runGitlab } from "../_helpers/gitlab_runner.ts";

Deno.test({
  name:
    "renderGitlab() under gitlab-ci-local: a merge request pipeline runs the plan job and no wave job, which keeps one note",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using gitlab = fakeForge("gitlab", { repository: "42" });
  gitlab.state.tokenUser = "project_42_bot";
  const demo = await demoRepo({ "examples/desired/eu": "eu v2\n" });
  await using repo = demo.repo;
  const { bin, world } = demo;
  const spec = JSON.stringify(
    {
      name: "e2e",
      plan: ["sh", "examples/tools/plan.sh", "{target}", "{plan}"],
      apply: ["sh", "examples/tools/apply.sh", "{target}", "{plan}"],
      pipeline: {
        variables: { DEMO_WORLD: world },
        install: `export PATH="${bin}:$PATH"`,
      },
      waves: [
        { name: "dev", gate: "never", runs: ["dev"] },
        { name: "prod", gate: "always", runs: ["eu"] },
      ],
    },
    null,
    2,
  );
  const parsed = parseSpec(spec, "waves.json");
  const [file] = renderGitlab(
    parsed,
    expandJobs(parsed, "waves.json"),
    "waves.json",
  );
  const base = await repo.commit("base", { "waves.json": spec });
  await repo.commit("head", { [file.path]: file.text });
  const pipeline = () =>
    runGitlab(repo.path, {
      file: file.path,
      env: { ...repo.env, PATH: "/usr/bin:/bin" },
      variables: {
        CI_PIPELINE_SOURCE: "merge_request_event",
        CI_MERGE_REQUEST_IID: "7",
        CI_MERGE_REQUEST_PROJECT_ID: "42",
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "42",
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_API_V4_URL: gitlab.apiUrl,
        CI_PROJECT_ID: "42",
        GITLAB_TOKEN: gitlab.token,
      },
    });

  await t.step("the plan job runs alone and creates the note", async () => {
    const run = await pipeline();
    expect(run.passed).toEqual(["plan"]);
    expect(run.failed).toEqual([]);
    const said = run.lines.get("plan")!;
    expect(said).toContain(
      `base: ${base.slice(0, 12)}, where the request leaves its target`,
    );
    expect(said).toContain('wave 2 "prod": 1 to change, waits for 1 approval');
    const notes = gitlab.state.comments.get(7)!;
    expect(notes.map((n) => [n.author, n.edits])).toEqual([
      ["project_42_bot", 0],
    ]);
    expect(notes[0].body).toContain("#### Wave 2 (prod): 1 of 1 run changes");
  });

  await t.step("the next push edits the same note", async () => {
    await repo.write("examples/desired/eu", "eu v3\n");
    await repo.commit("next push");
    const run = await pipeline();
    expect(run.passed).toEqual(["plan"]);
    const notes = gitlab.state.comments.get(7)!;
    expect(notes.length).toBe(1);
    expect(notes[0].edits).toBe(1);
    const head = await repo.git("rev-parse", "HEAD");
    expect(
      gitlab.state.gitlabStatuses.get(head)!.map((s) => [s.context, s.state]),
    ).toEqual([
      ["chant-wave/e2e/plan/dev", "success"],
      ["chant-wave/e2e/plan/prod", "success"],
    ]);
    await expect(Deno.stat(world)).rejects.toThrow(Deno.errors.NotFound);
    expect(gitlab.protocolErrors).toEqual([]);
  });
});

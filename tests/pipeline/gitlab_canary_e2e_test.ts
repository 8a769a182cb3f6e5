// The rendered GitLab pipeline run end to end by gitlab-ci-local's shell
// executor for a gated wave of two shares with a canary (SPEC.md §19, §13.1):
// its deciding job waits and writes a child pipeline in which, after the
// approve job, the deciding job runs again and applies the canary run before
// the share jobs apply the others; no job fails.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { demoRepo, runGitlab } from "../_helpers/gitlab_runner.ts";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

const CHILD = ".chant/waves/e2e/wave-1.gitlab-ci.yml";

function specText(bin: string, world: string): string {
  return JSON.stringify(
    {
      name: "e2e",
      plan: ["sh", "examples/tools/plan.sh", "{target}", "{plan}"],
      apply: ["sh", "tools/apply.sh", "{target}", "{plan}"],
      pipeline: {
        variables: { DEMO_WORLD: world },
        install: `export PATH="${bin}:$PATH"`,
      },
      waves: [{
        name: "staging",
        gate: "always",
        runs: ["stg-3", "stg-1", "stg-2"],
        shares: 2,
        canary: 1,
      }],
    },
    null,
    2,
  );
}

Deno.test({
  name:
    "renderGitlab() under gitlab-ci-local with a canary: approved, the child decides again and applies the canary, then the shares the rest",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const demo = await demoRepo({
    "tools/apply.sh":
      'sh examples/tools/apply.sh "$@" && echo "$1" >> "$DEMO_WORLD.log"\n',
    "examples/desired/stg-1": "stg-1 v1\n",
    "examples/desired/stg-2": "stg-2 v1\n",
    "examples/desired/stg-3": "stg-3 v1\n",
  });
  await using repo = demo.repo;
  const spec = specText(demo.bin, demo.world);
  const parsed = parseSpec(spec, "waves.json");
  const [file] = renderGitlab(
    parsed,
    expandJobs(parsed, "waves.json"),
    "waves.json",
  );
  const base = await repo.commit("base", { "waves.json": spec });
  await repo.commit("head", { [file.path]: file.text });
  const remote = join(repo.root, "remote.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", remote);
  await repo.git("remote", "add", "origin", remote);
  await repo.git("push", "-q", "origin", "main");
  const run = (pipelineFile: string, jobs?: string[], manual = false) =>
    runGitlab(repo.path, {
      file: pipelineFile,
      env: { ...repo.env, PATH: "/usr/bin:/bin" },
      ...(jobs ? { jobs } : {}),
      manual: manual && jobs ? jobs : [],
      variables: { GITLAB_USER_LOGIN: "ann", CI_COMMIT_BEFORE_SHA: base },
    });
  const applies = async () =>
    (await Deno.readTextFile(`${demo.world}.log`).catch(() => "")).split("\n")
      .filter(Boolean);

  const waiting = await run(file.path);
  expect({ failed: waiting.failed, blocked: waiting.blocked }).toEqual({
    failed: [],
    blocked: "wave-1-staging-approve-1",
  });
  expect(await applies()).toEqual([]);

  const approved = await run(CHILD, ["wave-1-staging-approve-1"], true);
  expect(approved.failed).toEqual([]);
  const rest = await run(CHILD, [
    "wave-1-staging-decide",
    "wave-1-staging-share-1",
    "wave-1-staging-share-2",
  ]);
  expect({ failed: rest.failed, warned: rest.warned }).toEqual({
    failed: [],
    warned: [],
  });
  expect(rest.lines.get("wave-1-staging-decide")).toContain(
    `canary: stg-3 applies first (canary 1, read at ${
      base.slice(0, 12)
    }, wave 1 "staging")`,
  );
  const applied = await applies();
  expect(applied[0]).toBe("stg-3");
  expect(applied.slice(1).sort()).toEqual(["stg-1", "stg-2"]);
});

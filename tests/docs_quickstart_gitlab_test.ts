// The README's GitLab quick start ("Adopt it on GitLab"), run end to end as a
// newcomer would: the spec of "Adopt it in ten minutes" with the GitLab
// section's install line, the shell blocks of steps 2 and 3 there and of step
// 4 here run in a temp git repository with a bare origin under an empty
// environment (the compiled binary on PATH), and the GitLab pipeline it
// renders run for each push by gitlab-ci-local's shell executor in a runner's
// clone, through the spec's own pipeline.install line: the push waits at
// prod's approve job, the click applies prod, running it again applies
// nothing. Stand-ins: `tofu` and `curl` (tests/_helpers/quickstart.ts).
// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
// @ts-types="../types/std/jsonc.d.ts"
import { parse as parseJsonc } from "@std/jsonc";
import { runGitlab } from "./_helpers/gitlab_runner.ts";
import {
  applies,
  blocksOf,
  quickstartRepo,
  readmeParts,
  runBlock,
} from "./_helpers/quickstart.ts";

const [SETUP] = await readmeParts("## Adopt it in ten minutes");
const [PIPELINE, APPROVAL, RERUN] = await readmeParts("## Adopt it on GitLab");

const DEV_AND_STAGING = ["live/dev", "live/staging-eu", "live/staging-us"];
const ALL = [
  "live/dev",
  "live/prod-eu-1",
  "live/prod-eu-2",
  "live/prod-us-1",
  "live/staging-eu",
  "live/staging-us",
];

Deno.test({
  name:
    "the README's GitLab quick start runs end to end: spec, pipeline, a click, run again",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  expect([PIPELINE, APPROVAL, RERUN].every((part) => part !== undefined))
    .toBe(true);
  const [specBlock] = blocksOf(SETUP, "jsonc").filter((b) =>
    b.info[1] === "waves.jsonc"
  );
  const [install] = blocksOf(PIPELINE, "jsonc");
  const spec = parseJsonc(specBlock.text) as {
    name: string;
    waves: { runs: string[] }[];
    pipeline: { install: string };
  };
  spec.pipeline = (parseJsonc(`{${install.text}}`) as typeof spec).pipeline;
  const { repo, origin, originMain } = await quickstartRepo(
    specBlock.info[1],
    JSON.stringify(spec, null, 2),
    spec.waves.flatMap((wave) => wave.runs),
  );
  await using _repo = repo;
  const root = repo.root;
  const runner = `${root}/runner`;
  await repo.gitIn(root, "clone", "--quiet", origin, runner);
  const env = { ...repo.env, PATH: `${root}/runner-bin:/usr/bin:/bin` };
  const file = `${spec.name}.gitlab-ci.yml`;
  const child = `.chant/waves/${spec.name}/wave-3.gitlab-ci.yml`;
  let before = "";
  const gcl = (options: {
    file: string;
    jobs?: string[];
    manual?: string[];
    login: string;
  }) =>
    runGitlab(runner, {
      ...options,
      env,
      variables: {
        GITLAB_USER_LOGIN: options.login,
        CI_COMMIT_BEFORE_SHA: before,
      },
    });

  await t.step("the spec, check, and the two pushes", async () => {
    // Steps 2 and 3 of the GitHub quick start, then step 4 here.
    const setup = blocksOf(SETUP, "sh").filter((block) =>
      !block.text.includes("pipeline github")
    );
    for (const block of [...setup, ...blocksOf(PIPELINE, "sh")]) {
      before = await originMain();
      const out = await runBlock(repo.path, root, block.text);
      expect({ line: block.line, code: out.code, stderr: out.stderr })
        .toMatchObject({ line: block.line, code: 0 });
      if (block.text.includes("chant-wave pipeline gitlab")) {
        expect(out.stderr).toContain("; a click needs no token\n");
      }
    }
    expect(await originMain()).not.toBe(before);
    await repo.gitIn(runner, "pull", "--quiet");
  });

  await t.step(
    "the pipeline: dev and staging apply with no click, prod blocks at its approve job, nothing failed",
    async () => {
      const run = await gcl({ file, login: "eve" });
      expect({ failed: run.failed, warned: run.warned }).toEqual({
        failed: [],
        warned: [],
      });
      for (
        const job of [
          "wave-1-dev",
          "wave-2-staging",
          "wave-2-staging-applied",
          "wave-3-prod-decide",
        ]
      ) {
        expect(run.passed).toContain(job);
        expect(PIPELINE).toContain(`\`${job}\``);
      }
      expect(run.blocked).toBe("wave-3-prod-approve-1");
      const prod = run.lines.get("wave-3-prod-decide")!;
      const forge = prod.indexOf(
        "approve on GitLab: play the manual job wave-3-prod-approve-1 in this pipeline",
      );
      expect(prod[forge + 1]).toMatch(/^then approve: chant-wave approve /);
      expect(await applies(root)).toEqual(DEV_AND_STAGING);
    },
  );

  await t.step("the click applies prod, in the same pipeline", async () => {
    expect(APPROVAL).toContain("`wave-3-prod-approve-1`");
    const play = await gcl({
      file: child,
      jobs: ["wave-3-prod-approve-1"],
      manual: ["wave-3-prod-approve-1"],
      login: "ann",
    });
    expect(play.passed).toEqual(["wave-3-prod-approve-1"]);
    const groups = await gcl({
      file: child,
      jobs: ["wave-3-prod-eu", "wave-3-prod-us"],
      login: "eve",
    });
    expect(groups.failed).toEqual([]);
    expect(groups.passed.sort()).toEqual(["wave-3-prod-eu", "wave-3-prod-us"]);
    expect(await applies(root)).toEqual(ALL);
  });

  await t.step(
    "running the pipeline again passes every job and applies nothing",
    async () => {
      const run = await gcl({ file, login: "eve" });
      expect({ code: run.code, blocked: run.blocked, failed: run.failed })
        .toEqual({ code: 0, blocked: undefined, failed: [] });
      expect(run.passed).toContain("wave-3-prod-eu");
      expect(await applies(root)).toEqual(ALL);
    },
  );
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { renderGitlabChild } from "../../src/pipeline/render_gitlab_child.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { assertGolden, fixture, quiet, reviewed, specOf } from "./_fixtures.ts";
import { gitlabCiLocal } from "./_oracles.ts";

type GitlabJob = Record<string, unknown> & {
  needs:
    ({ job: string; artifacts: boolean } | { pipeline: string; job: string })[];
  script: string[];
  variables: Record<string, string>;
};

/**
 * The jobs and needs of the rendered file: a gated wave's share and group jobs
 * live in its child pipeline, and its deciding job (or whole-wave job) is
 * followed by its gate job, which every job of the next wave needs instead.
 */
function parentJobs(
  f: Awaited<ReturnType<typeof fixture>>,
): [string, string[]][] {
  const gated = new Set(
    f.spec.waves.filter((wave) => wave.gate !== "never").map((wave) => wave.k),
  );
  const gateOf = new Map(
    f.jobs.filter((job) => gated.has(job.wave)).map((
      job,
    ) => [job.name, `wave-${job.wave}-${job.waveName}-gate`]),
  );
  return f.jobs.flatMap((job) => {
    const deciding = job.kind === "decide" || job.kind === "wave";
    if (gated.has(job.wave) && !deciding) return [];
    const needs = [
      ...new Set(job.needs.map((need) => gateOf.get(need) ?? need)),
    ];
    const gate = gateOf.get(job.name);
    return [
      [job.name, needs] as [string, string[]],
      ...(gate ? [[gate, [job.name]] as [string, string[]]] : []),
    ];
  });
}

for (const name of ["example", "portable"] as const) {
  Deno.test({
    name:
      `renderGitlab() renders ${name} as the golden file, listed by gitlab-ci-local`,
    sanitizeResources: false,
  }, async () => {
    const f = await fixture(name);
    const [file] = renderGitlab(f.spec, f.jobs, f.specFile);
    await assertGolden(`${name}/gitlab.yml`, file.text);
    await using repo = await tempRepo({ [file.path]: file.text });
    await repo.commit("pipeline");
    const out = await gitlabCiLocal(
      ["--file", file.path, "--list-json"],
      repo.path,
      { ...repo.env },
    );
    expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
    const listed = JSON.parse(out.stdout) as {
      name: string;
      needs: { job: string }[];
    }[];
    expect(listed.map((job) => [job.name, job.needs.map((need) => need.job)]))
      .toEqual([...parentJobs(f), ["plan", []]]);
  });
}

Deno.test({
  name:
    "renderGitlab() adds the resume and record-plans jobs, each run by gitlab-ci-local only in its own kind of pipeline",
  sanitizeResources: false,
}, async (t) => {
  const f = quiet(reviewed(await fixture("forge_jobs")));
  const files = renderGitlab(f.spec, f.jobs, f.specFile);
  expect(files).toHaveLength(1);
  const [file] = files;
  await assertGolden("forge_jobs/gitlab.yml", file.text);
  expect(file.text.split("\n").slice(4, 16)).toEqual([
    "# A gated wave's deciding job writes the child pipeline its gate job runs: the wave's share",
    "# and group jobs, and when it waits, first one manual approve job per approval needed; the",
    "# pipeline waits there, blocked, not failed. To approve, play the wave's manual job",
    "# wave-<k>-<name>-approve-<i>: its forge gates' jobs confirm each click through the API with",
    "# GITLAB_TOKEN (a project access token with read_api, as a masked variable).",
    '# The resume job runs in scheduled pipelines only: create a pipeline schedule "*/10 * * * *"',
    "# (Build > Pipeline schedules, or the API) on a branch; it needs GITLAB_TOKEN, a token with the api scope.",
    "# The record-plans job runs in merge request pipelines only: it plans every wave at the",
    "# merge request's head and keeps the digests as its artifact, which the wave jobs read",
    "# with GITLAB_TOKEN (read_api) when a review approves the merge's forge gates. It runs",
    "# the merge request's code: keep the ledger's push token a protected variable, and do",
    "# not let the job token push, so this job cannot write the ledger.",
  ]);
  await using repo = await tempRepo({ [file.path]: file.text });
  await repo.commit("pipeline");
  const waves = parentJobs(f).map(([name]) => name);
  const cases = [
    { source: "push", variables: [], runs: waves },
    { source: "schedule", variables: [], runs: ["resume"] },
    {
      source: "merge_request_event",
      variables: ["CI_MERGE_REQUEST_TARGET_BRANCH_NAME=release/1"],
      runs: ["record-plans"],
    },
    {
      source: "merge_request_event",
      variables: ["CI_MERGE_REQUEST_TARGET_BRANCH_NAME=other"],
      runs: [],
    },
  ];
  for (const c of cases) {
    await t.step(`${c.source} ${c.variables.join(" ")}`, async () => {
      const out = await gitlabCiLocal(
        [
          "--file",
          file.path,
          "--list-json",
          "--ignore-predefined-vars",
          "CI_PIPELINE_SOURCE",
          "--variable",
          `CI_PIPELINE_SOURCE=${c.source}`,
          ...c.variables.flatMap((variable) => ["--variable", variable]),
        ],
        repo.path,
        { ...repo.env },
      );
      expect(out.code).toBe(0);
      const listed = JSON.parse(out.stdout) as { name: string; when: string }[];
      expect(listed.map((job) => job.name)).toEqual([
        ...waves,
        "resume",
        "record-plans",
      ]);
      expect(
        listed.filter((job) => job.when !== "never").map((job) => job.name),
      ).toEqual(c.runs);
    });
  }
  const doc = parse(file.text) as Record<string, GitlabJob>;
  expect(doc.resume.script).toEqual([
    "chant-wave resume --spec tests/fixtures/pipeline/forge_jobs.jsonc --ledger git",
  ]);
  expect(doc["record-plans"].variables.GIT_DEPTH).toBe("0");
  expect(doc["record-plans"].script).toEqual([
    "chant-wave run --spec tests/fixtures/pipeline/forge_jobs.jsonc --record-plans",
  ]);
  expect(doc["record-plans"].artifacts).toEqual({
    paths: [".chant/recorded-plans/rollout.json"],
  });
});

Deno.test({
  name:
    "renderGitlab() adds the plan job that a merge request pipeline runs alone, as gitlab-ci-local lists it; one job with the recorded plans too",
  sanitizeResources: false,
}, async (t) => {
  for (const review of [false, true]) {
    await t.step(review ? "with review approvals" : "by default", async () => {
      const example = await fixture("example");
      const f = review ? reviewed(example) : example;
      const [file] = renderGitlab(f.spec, f.jobs, f.specFile);
      const name = review ? "record-plans" : "plan";
      if (review) await assertGolden("example/gitlab.recorded.yml", file.text);
      await using repo = await tempRepo({ [file.path]: file.text });
      await repo.commit("pipeline");
      const waves = parentJobs(f).map(([job]) => job);
      for (
        const [source, runs] of [
          ["push", waves],
          ["merge_request_event", [name]],
        ] as const
      ) {
        const out = await gitlabCiLocal(
          [
            "--file",
            file.path,
            "--list-json",
            "--ignore-predefined-vars",
            "CI_PIPELINE_SOURCE",
            "--variable",
            `CI_PIPELINE_SOURCE=${source}`,
            "--variable",
            "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main",
          ],
          repo.path,
          { ...repo.env },
        );
        expect(out.code).toBe(0);
        const listed = JSON.parse(out.stdout) as {
          name: string;
          when: string;
        }[];
        expect(
          listed.filter((job) => job.when !== "never").map((job) => job.name),
        ).toEqual(runs);
      }
      const doc = parse(file.text) as Record<string, GitlabJob>;
      expect(doc[name].script).toEqual([
        `chant-wave run --spec examples/waves.jsonc --pull-request${
          review ? " --record-plans" : ""
        }`,
      ]);
      expect(doc[name].artifacts).toEqual(
        review ? { paths: [".chant/recorded-plans/demo.json"] } : undefined,
      );
    });
  }
});

Deno.test("renderGitlab() writes the §6.2 settings for the example", async () => {
  const f = await fixture("example");
  const [file] = renderGitlab(f.spec, f.jobs, f.specFile);
  expect(file.path).toBe("demo.gitlab-ci.yml");
  const doc = parse(file.text) as Record<string, GitlabJob>;
  const dev = doc["wave-1-dev"];
  expect(dev.variables.GIT_DEPTH).toBe("0");
  expect(dev.interruptible).toBe(false);
  expect(dev.resource_group).toBe("demo/wave-1-dev");
  expect(dev.script).toEqual([
    "chant-wave run --spec examples/waves.jsonc --wave 1 --ledger git",
  ]);
  // A gated wave's deciding job writes its child pipeline and keeps it with
  // its decision; its exit 3 ends green only once that child is written.
  const decide = doc["wave-2-staging-decide"];
  expect(decide.allow_failure).toBeUndefined();
  expect(decide.needs).toEqual([{ job: "wave-1-dev", artifacts: false }]);
  expect(decide.script).toEqual([
    [
      "set +e",
      "chant-wave run --spec examples/waves.jsonc --wave 2 --decide --gitlab-child --ledger git",
      "code=$?",
      "set -e",
      'if [ "$code" -eq 3 ] && [ -f .chant/waves/demo/wave-2.gitlab-ci.yml ]; then',
      '  echo "wave 2 staging waits for an approval: play its manual approve job in the pipeline of wave-2-staging-gate"',
      "  exit 0",
      "fi",
      'exit "$code"',
    ].join("\n"),
  ]);
  expect(decide.artifacts).toEqual({
    when: "always",
    paths: [
      ".chant/waves/demo/wave-2.json",
      ".chant/waves/demo/wave-2.gitlab-ci.yml",
    ],
  });
  expect(doc["wave-2-staging-gate"]).toEqual({
    needs: [{ job: "wave-2-staging-decide", artifacts: true }],
    variables: { PARENT_PIPELINE_ID: "$CI_PIPELINE_ID" },
    rules: dev.rules,
    trigger: {
      include: [{
        artifact: ".chant/waves/demo/wave-2.gitlab-ci.yml",
        job: "wave-2-staging-decide",
      }],
      strategy: "depend",
    },
  });
  expect(doc["wave-2-staging-share-1"]).toBeUndefined();
  expect(doc["wave-3-prod"].needs).toEqual([
    { job: "wave-2-staging-gate", artifacts: false },
  ]);
  expect(doc["wave-3-prod"].environment).toEqual({ name: "production" });
  expect(doc["wave-3-prod-gate"].needs).toEqual([
    { job: "wave-3-prod", artifacts: true },
  ]);
});

Deno.test("renderGitlab() writes tags, id tokens, image, variables and branch rules", async () => {
  const f = await fixture("portable");
  const doc = parse(renderGitlab(f.spec, f.jobs, f.specFile)[0].text) as Record<
    string,
    GitlabJob
  >;
  const child = parse(
    renderGitlabChild(f.spec, f.jobs, f.specFile, 2, { waits: false }).text,
  ) as Record<string, GitlabJob>;
  const share = child["wave-2-staging-share-3"];
  expect(share.tags).toEqual(["linux", "big"]);
  expect(share.id_tokens).toEqual({
    VAULT_ID_TOKEN: { aud: "https://vault.example.invalid" },
  });
  expect(share.image).toBe("debian:12");
  expect(share.rules).toBeUndefined();
  expect(doc["wave-1-dev"].variables).toEqual({
    GIT_DEPTH: "0",
    TF_IN_AUTOMATION: "1",
    VERBOSE: "yes",
    STAGE: "dev",
  });
  const prod = parse(
    renderGitlabChild(f.spec, f.jobs, f.specFile, 3, { waits: false }).text,
  ) as Record<string, GitlabJob>;
  expect(prod["wave-3-prod-us"].tags).toEqual(["us-east"]);
  expect(prod["wave-3-prod-us"].environment).toEqual({
    name: "production-us",
  });
  expect(doc["wave-2-staging-decide"].rules).toEqual([
    {
      if:
        '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web") && $CI_COMMIT_BRANCH == "main"',
    },
    {
      if:
        '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web") && $CI_COMMIT_BRANCH =~ /^release\\/[^\\/]*$/',
    },
  ]);
  expect(doc["wave-2-staging-gate"].rules).toEqual(
    doc["wave-2-staging-decide"].rules,
  );
  expect(share.before_script).toEqual([
    "apt-get install -y git",
    f.spec.pipeline!.install,
  ]);
});

const BASE = {
  name: "s",
  plan: ["p", "{plan}"],
  apply: ["a", "{plan}"],
  waves: [{ name: "a", runs: ["x"] }],
};

Deno.test("renderGitlab() refuses what GitLab cannot express", async (t) => {
  const many = Array.from({ length: 51 }, (_, i) => `t${i}`);
  const cases = [
    {
      name: "a uses: setup step",
      spec: {
        ...BASE,
        pipeline: { setup: [{ uses: "actions/setup-node@v4" }] },
      },
      message:
        'cannot render the GitLab CI pipeline: pipeline.setup[0] uses the action "actions/setup-node@v4", which GitLab CI cannot run; use a "run" step',
    },
    {
      name: "a branch no rules expression can hold",
      spec: { ...BASE, branches: ["main", 'we"ird'] },
      message:
        'cannot render the GitLab CI pipeline: branch "we"ird" cannot go into a rules expression; use letters, digits, ".", "_", "-", "/" and "*"',
    },
    {
      name: "a runner group",
      spec: { ...BASE, runner: { group: "big" } },
      message:
        'cannot render the GitLab CI pipeline: wave 1 "a": runner group "big" has no GitLab equivalent; name runner tags instead',
    },
    {
      name: "more than 50 needs",
      spec: {
        ...BASE,
        waves: [
          { name: "wide", gate: "never", runs: many, shares: 51 },
          { name: "next", runs: ["y"] },
        ],
      },
      message:
        'cannot render the GitLab CI pipeline: job "wave-2-next" needs 51 jobs, more than GitLab\'s limit of 50; use fewer shares in wave 1',
    },
    {
      name: "a group named like an approve job of its wave's child pipeline",
      spec: {
        ...BASE,
        waves: [{
          name: "a",
          runs: ["x"],
          jobs: [{ name: "approve-1", runs: ["x"] }],
        }],
      },
      message:
        'cannot render the GitLab CI pipeline: wave 1 "a" group "approve-1": its job is named like the wave\'s approve jobs on GitLab; rename the group',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const f = specOf(c.spec);
      expect(() => renderGitlab(f.spec, f.jobs, f.specFile)).toThrow(
        c.message,
      );
    });
  }
});

Deno.test("renderGitlab() delays the first job of a wave with a soak, at most a week", () => {
  const f = specOf({
    ...BASE,
    waves: [
      { name: "dev", gate: "never", runs: ["x"], soak: "1h" },
      { name: "staging", gate: "never", runs: ["y"], soak: "1h30m" },
      { name: "prod", runs: ["z", "w"], soak: "400h", shares: 2 },
    ],
  });
  const doc = parse(renderGitlab(f.spec, f.jobs, f.specFile)[0].text) as Record<
    string,
    GitlabJob
  >;
  const when = (job: string) =>
    (doc[job].rules as Record<string, unknown>[]).map((rule) => [
      rule.when,
      rule.start_in,
    ]);
  expect(when("wave-1-dev")).toEqual([[undefined, undefined]]);
  expect(when("wave-2-staging")).toEqual([["delayed", "90 minutes"]]);
  expect(when("wave-3-prod-decide")).toEqual([["delayed", "10080 minutes"]]);
  expect(doc["wave-3-prod-gate"].when).toBeUndefined();
});

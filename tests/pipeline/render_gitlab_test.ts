// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parse } from "yaml";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { assertGolden, fixture, reviewed, specOf } from "./_fixtures.ts";
import { gitlabCiLocal } from "./_oracles.ts";

type GitlabJob = Record<string, unknown> & {
  needs: { job: string; artifacts: boolean }[];
  script: string[];
  variables: Record<string, string>;
};

/**
 * The jobs and needs of the rendered file: each gated wave's deciding job is
 * followed by its manual approve job, which every job needing it needs too.
 */
function withApprove(
  f: Awaited<ReturnType<typeof fixture>>,
): [string, string[]][] {
  const gated = new Set(
    f.spec.waves.filter((wave) => wave.gate !== "never").map((wave) => wave.k),
  );
  const approveOf = new Map(
    f.jobs.filter((job) =>
      gated.has(job.wave) && (job.kind === "decide" || job.kind === "wave")
    ).map((job) => [job.name, `wave-${job.wave}-${job.waveName}-approve`]),
  );
  return f.jobs.flatMap((job) => {
    const needs = job.needs.flatMap((need) =>
      approveOf.has(need) ? [need, approveOf.get(need)!] : [need]
    );
    const approve = approveOf.get(job.name);
    return [
      [job.name, needs] as [string, string[]],
      ...(approve ? [[approve, [job.name]] as [string, string[]]] : []),
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
      .toEqual(withApprove(f));
  });
}

Deno.test({
  name:
    "renderGitlab() adds the resume and record-plans jobs, each run by gitlab-ci-local only in its own kind of pipeline",
  sanitizeResources: false,
}, async (t) => {
  const f = reviewed(await fixture("forge_jobs"));
  const files = renderGitlab(f.spec, f.jobs, f.specFile);
  expect(files).toHaveLength(1);
  const [file] = files;
  await assertGolden("forge_jobs/gitlab.yml", file.text);
  expect(file.text.split("\n").slice(6, 13)).toEqual([
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
  const waves = withApprove(f).map(([name]) => name);
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

Deno.test("renderGitlab() writes the §6.2 settings for the example", async () => {
  const f = await fixture("example");
  const [file] = renderGitlab(f.spec, f.jobs, f.specFile);
  expect(file.path).toBe("demo.gitlab-ci.yml");
  const doc = parse(file.text) as Record<string, GitlabJob>;
  const groups = new Set<unknown>();
  for (const job of f.jobs) {
    const rendered = doc[job.name];
    groups.add(rendered.resource_group);
    expect(rendered.variables.GIT_DEPTH).toBe("0");
    expect(rendered.interruptible).toBe(false);
    expect(rendered.script).toEqual([
      [...job.command, "--ledger", "git"].join(" "),
    ]);
    expect(rendered.needs.filter((need) => !need.job.endsWith("-approve")))
      .toEqual(job.needs.map((need) => ({
        job: need,
        artifacts: need.endsWith("-decide"),
      })));
  }
  // The gated wave's deciding job may wait (exit 3); its approve job blocks.
  expect(doc["wave-2-staging-decide"].allow_failure).toEqual({
    exit_codes: [3],
  });
  expect(doc["wave-2-staging-share-1"].needs).toContainEqual({
    job: "wave-2-staging-approve",
    artifacts: false,
  });
  const approve = doc["wave-2-staging-approve"];
  expect(approve.allow_failure).toBe(false);
  expect(approve.needs).toEqual([
    { job: "wave-2-staging-decide", artifacts: true },
  ]);
  expect(
    (approve.rules as { when: string }[]).every((r) => r.when === "manual"),
  )
    .toBe(true);
  expect(approve.script).toEqual([
    'chant-wave approve --spec examples/waves.jsonc --wave 2 --decided --resume --ledger git --by "$GITLAB_USER_LOGIN" --via "$CI_JOB_URL"',
  ]);
  expect(groups.size).toBe(f.jobs.length);
  expect(doc["wave-2-staging-approve"].resource_group).toBe(
    "demo/wave-2-staging-approve",
  );
  expect(doc["wave-1-dev"].resource_group).toBe("demo/wave-1-dev");
  expect(doc["wave-2-staging-decide"].artifacts).toEqual({
    when: "always",
    paths: [".chant/waves/demo/wave-2.json"],
  });
  expect(doc["wave-2-staging-share-1"].artifacts).toBeUndefined();
  expect(doc["wave-3-prod"].environment).toEqual({ name: "production" });
});

Deno.test("renderGitlab() writes tags, id tokens, image, variables and branch rules", async () => {
  const f = await fixture("portable");
  const doc = parse(renderGitlab(f.spec, f.jobs, f.specFile)[0].text) as Record<
    string,
    GitlabJob
  >;
  const share = doc["wave-2-staging-share-3"];
  expect(share.tags).toEqual(["linux", "big"]);
  expect(share.id_tokens).toEqual({
    VAULT_ID_TOKEN: { aud: "https://vault.example.invalid" },
  });
  expect(share.image).toBe("debian:12");
  expect(doc["wave-1-dev"].variables).toEqual({
    GIT_DEPTH: "0",
    TF_IN_AUTOMATION: "1",
    VERBOSE: "yes",
    STAGE: "dev",
  });
  expect(doc["wave-3-prod-us"].tags).toEqual(["us-east"]);
  expect(doc["wave-3-prod-us"].environment).toEqual({ name: "production-us" });
  expect(share.rules).toEqual([
    {
      if:
        '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web") && $CI_COMMIT_BRANCH == "main"',
    },
    {
      if:
        '($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web") && $CI_COMMIT_BRANCH =~ /^release\\/[^\\/]*$/',
    },
  ]);
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
          { name: "wide", runs: many, shares: 51 },
          { name: "next", runs: ["y"] },
        ],
      },
      message:
        'cannot render the GitLab CI pipeline: job "wave-2-next" needs 51 jobs, more than GitLab\'s limit of 50; use fewer shares in wave 1',
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

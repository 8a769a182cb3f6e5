// The rendered GitLab pipeline executed end to end by gitlab-ci-local's shell
// executor (SPEC.md §6.2, §4.5, §4.7, §13.1): in a temporary repository with a
// local bare remote, wave 1 applies and wave 2 waits: its deciding job exits 3,
// which the pipeline allows (a warning, not a failure), and the pipeline stops
// at the manual approve job every later job needs (blocked). The approve job is
// played (`--manual`) as ann: it approves the digest of the decision beside it
// and asks GitLab (a fake, real HTTP) to retry the job that waited. Then, as
// GitLab would after that retry, the pipeline carries on: the deciding job
// stands approved and every wave applies, the share and group jobs reading the
// decision from the deciding job's artifacts. Every job runs `--ledger git`
// against the bare remote, as the approver does.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { BINARY } from "../_helpers/binary.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { gitlabCiLocal } from "./_oracles.ts";
import { fakeForge } from "../_helpers/fake_forge.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
// gitlab-ci-local's shell executor copies the checkout with rsync: `.ci/run`
// installs it, and this test fails (never skips) on a machine without it.
const HAS_RSYNC = (await new Deno.Command("sh", {
  args: ["-c", "command -v rsync"],
  stdout: "null",
}).output())
  .success;
const TARGETS = ["dev", "staging-eu", "staging-us", "staging-ap", "prod-eu"];

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
      waves: [
        { name: "dev", gate: "never", runs: ["dev"] },
        {
          name: "staging",
          gate: "always",
          runs: ["staging-eu", "staging-us", "staging-ap"],
          shares: 2,
        },
        {
          name: "prod",
          gate: "never",
          runs: ["prod-eu", "prod-us"],
          jobs: [
            { name: "eu", runs: ["prod-eu"] },
            { name: "us", runs: ["prod-us"] },
          ],
        },
      ],
    },
    null,
    2,
  );
}

async function layout(): Promise<Record<string, string>> {
  const files: Record<string, string> = {
    ".gitignore": ".chant/\n.gitlab-ci-local/\n",
  };
  for (const tool of ["plan.sh", "apply.sh"]) {
    files[`examples/tools/${tool}`] = await Deno.readTextFile(
      join(ROOT, "examples/tools", tool),
    );
  }
  for (const target of [...TARGETS, "prod-us"]) {
    files[`examples/desired/${target}`] = `${target} v2\n`;
  }
  return files;
}

Deno.test({
  name:
    "renderGitlab() runs under gitlab-ci-local: wait (blocked), play the approve job, resume, apply all",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  if (!HAS_RSYNC) {
    throw new Error(
      "gitlab-ci-local needs rsync, which is not on PATH: install it " +
        "(apt-get install rsync; .ci/run does)",
    );
  }
  await using gitlab = fakeForge("gitlab", { repository: "42" });
  await using repo = await tempRepo(await layout());
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
  await repo.gitIn(repo.root, "init", "-q", "--bare", "remote.git");
  await repo.git("remote", "add", "origin", join(repo.root, "remote.git"));
  await repo.git("push", "-q", "origin", "main");
  const gcl = (extra: string[] = []) =>
    gitlabCiLocal(
      [
        "--file",
        file.path,
        "--shell-executor-no-image",
        "--shell-isolation",
        "--no-artifacts-to-source",
        "--no-color",
        "--ignore-predefined-vars",
        "CI_API_V4_URL,CI_PROJECT_ID,GITLAB_USER_LOGIN",
        "--variable",
        `CI_API_V4_URL=${gitlab.apiUrl}`,
        "--variable",
        "CI_PROJECT_ID=42",
        "--variable",
        "GITLAB_USER_LOGIN=ann",
        "--variable",
        `GITLAB_TOKEN=${gitlab.token}`,
        ...extra,
      ],
      repo.path,
      { ...repo.env, PATH: `${bin}:/usr/bin:/bin` },
    );
  const applied = async () => {
    await Deno.mkdir(world, { recursive: true });
    const names: string[] = [];
    for await (const entry of Deno.readDir(world)) names.push(entry.name);
    return names.sort();
  };
  const ledgerFiles = async () =>
    (await repo.gitIn(
      join(repo.root, "remote.git"),
      "ls-tree",
      "-r",
      "--name-only",
      "chant/ledger",
    )).split("\n").filter((name) => name && !name.includes("/order/"));

  await t.step(
    "wave 1 applies, wave 2 waits: allowed exit 3, blocked at its manual approve job",
    async () => {
      const out = await gcl(["wave-1-dev", "wave-2-staging-decide"]);
      const log = out.stdout + out.stderr;
      expect(log).toMatch(/PASS\s+wave-1-dev/);
      expect(log).toMatch(/wave-2-staging-decide\s+finished in .* WARN 3/);
      expect(log).not.toMatch(/FAIL\s+wave-2-staging-decide/);
      expect(await applied()).toEqual(["dev"]);
      const listed = JSON.parse(
        (await gcl(["--list-json"])).stdout,
      ) as {
        name: string;
        when: string;
        allow_failure: unknown;
        needs: { job: string }[];
      }[];
      const approve = listed.find((job) =>
        job.name === "wave-2-staging-approve"
      );
      expect(approve).toMatchObject({ when: "manual", allow_failure: false });
      for (const name of ["wave-2-staging-share-1", "wave-2-staging-share-2"]) {
        expect(listed.find((job) => job.name === name)?.needs.map((n) => n.job))
          .toContain("wave-2-staging-approve");
      }
    },
  );

  await t.step(
    "the approve job, played as ann, approves the decided digest and retries the job that waited",
    async () => {
      const pendingFile = (await ledgerFiles()).find((name) =>
        name.includes("-pending-")
      )!;
      const pending = JSON.parse(
        await repo.gitIn(
          join(repo.root, "remote.git"),
          "show",
          `chant/ledger:${pendingFile}`,
        ),
      );
      const { jobId, pipelineId, jobName } = pending.locator;
      expect(jobName).toBe("wave-2-staging-decide");
      gitlab.state.jobs.push({
        id: Number(jobId),
        name: jobName,
        status: "failed",
        pipeline: Number(pipelineId),
      });
      const out = await gcl([
        "--manual",
        "wave-2-staging-approve",
        "wave-2-staging-approve",
      ]);
      const log = out.stdout + out.stderr;
      expect(log).toMatch(/PASS\s+wave-2-staging-approve/);
      expect(log).toContain(
        `approved e2e-wave-2 of e2e for ${pending.planDigest} by ann`,
      );
      expect(log).toMatch(/via \S+\/-\/jobs\/\d+/);
      expect(gitlab.state.retries).toEqual([Number(jobId)]);
      expect(gitlab.protocolErrors).toEqual([]);
    },
  );

  await t.step(
    "resumed, the deciding job stands approved and every wave applies",
    async () => {
      const out = await gcl(["--manual", "wave-2-staging-approve"]);
      const log = out.stdout + out.stderr;
      expect({ code: out.code, log }).toMatchObject({ code: 0 });
      for (
        const job of [
          "wave-1-dev",
          "wave-2-staging-decide",
          "wave-2-staging-approve",
          "wave-2-staging-share-1",
          "wave-2-staging-share-2",
          "wave-3-prod-eu",
          "wave-3-prod-us",
        ]
      ) expect(log).toMatch(new RegExp(`PASS\\s+${job}\\b`));
      expect(log).toMatch(/wave-2-staging-share-1\s+imported artifacts/);
      expect(log).toContain("approved by ann");
      // Played again when nothing waits, the approve job approves nothing
      // new, yet records the decided plans, so no other record can name it.
      expect(log).toContain("nothing to approve");
      expect(log).toContain(
        "recording this approval of the decided plans all the same",
      );
      expect(await applied()).toEqual([...TARGETS, "prod-us"].sort());
    },
  );

  await t.step("the remote's chant/ledger holds the jobs' facts", async () => {
    const kinds = (await ledgerFiles()).map((name) =>
      name.match(/-(pending|approval|claim|run-outcome)-/)?.[1]
    );
    // The first play's approval, and the second play's of the decided plans.
    expect(kinds.filter((kind) => kind === "approval").length).toBe(2);
    expect(kinds).toContain("pending");
    expect(kinds).toContain("claim");
    expect(kinds).toContain("run-outcome");
  });
});

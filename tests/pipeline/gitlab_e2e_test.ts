// The rendered GitLab pipeline executed end to end by gitlab-ci-local's shell
// executor (SPEC.md §6.2, §4.5, §4.7): in a temporary repository with a local bare
// remote, wave 1 applies, wave 2 waits (its deciding job exits 3 and nothing
// later starts), the printed digest is approved, and the next pipeline applies
// every wave, the share and group jobs reading the decision from the deciding
// job's artifacts. Every job runs `--ledger git` against the bare remote, as the
// approver does.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { expandJobs } from "../../src/jobs/expand_jobs.ts";
import { renderGitlab } from "../../src/pipeline/render_gitlab.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { BINARY } from "../_helpers/binary.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { gitlabCiLocal } from "./_oracles.ts";

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
  name: "renderGitlab() runs under gitlab-ci-local: wait, approve, apply all",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  if (!HAS_RSYNC) {
    throw new Error(
      "gitlab-ci-local needs rsync, which is not on PATH: install it " +
        "(apt-get install rsync; .ci/run does)",
    );
  }
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
  let approve: string[] = [];

  await t.step(
    "wave 1 applies, wave 2 waits with exit 3, later waves do not start",
    async () => {
      const out = await gcl();
      const log = out.stdout + out.stderr;
      expect(out.code).not.toBe(0);
      expect(log).toMatch(/PASS\s+wave-1-dev/);
      expect(log).toMatch(/wave-2-staging-decide\s+finished in .* FAIL 3/);
      expect(log).not.toContain("wave-2-staging-share-1 starting");
      expect(log).not.toContain("wave-3-prod-eu starting");
      expect(await applied()).toEqual(["dev"]);
      const line = log.match(/then approve: (chant-wave approve .*)/)?.[1];
      expect(line).toMatch(
        /^chant-wave approve e2e e2e-wave-2 --plan sha256:[0-9a-f]{64} --ledger git$/,
      );
      approve = line!.split(" ").slice(1);
    },
  );

  await t.step("the printed command approves the digest", async () => {
    const out = await new Deno.Command(BINARY, {
      args: [...approve, "--by", "ann"],
      cwd: repo.path,
      env: repo.env,
      clearEnv: true,
    }).output();
    expect(new TextDecoder().decode(out.stderr)).toContain(
      "approved e2e-wave-2 of e2e",
    );
    expect(out.code).toBe(0);
  });

  await t.step(
    "the next pipeline applies every wave through the artifacts",
    async () => {
      const out = await gcl();
      const log = out.stdout + out.stderr;
      expect({ code: out.code, log }).toMatchObject({ code: 0 });
      for (
        const job of [
          "wave-1-dev",
          "wave-2-staging-decide",
          "wave-2-staging-share-1",
          "wave-2-staging-share-2",
          "wave-3-prod-eu",
          "wave-3-prod-us",
        ]
      ) expect(log).toMatch(new RegExp(`PASS\\s+${job}\\b`));
      expect(log).toMatch(/wave-2-staging-share-1\s+imported artifacts/);
      expect(log).toContain("approved by ann");
      expect(await applied()).toEqual([...TARGETS, "prod-us"].sort());
    },
  );

  await t.step("the remote's chant/ledger holds the jobs' facts", async () => {
    const files = await repo.gitIn(
      join(repo.root, "remote.git"),
      "ls-tree",
      "-r",
      "--name-only",
      "chant/ledger",
    );
    // The record files, not their sequence numbers' entries beside them.
    const kinds = files.split("\n").filter((name) => !name.includes("/order/"))
      .map((name) => name.match(/-(pending|approval|claim|run-outcome)-/)?.[1]);
    expect(kinds.filter((kind) => kind === "approval").length).toBe(1);
    expect(kinds).toContain("pending");
    expect(kinds).toContain("claim");
    expect(kinds).toContain("run-outcome");
  });
});

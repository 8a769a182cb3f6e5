// The rendered GitLab pipeline run end to end by gitlab-ci-local's shell
// executor (SPEC.md §6.2, §10, §12.1, §13.1), push after push of one
// repository with a bare remote, every job on `--ledger git`, the plain
// plan and apply scripts of examples/tools (the apply one also logs each
// apply). dev is never gated; staging, of two shares, waits only for a
// destructive plan; prod, of two groups, needs two approvers.
//   1. A change with no destructive plan: dev and staging apply with no
//      manual job played and no job failed; prod's child pipeline stops at
//      its approve jobs (blocked).
//   2. Two approvers, each a click: ann's play of prod's first approve job
//      passes and nothing fails; her play of the second counts nothing new
//      and says who must click; bob's passes, and the groups apply.
//   3. The finished pipeline again: every job passes, nothing applies twice.
//   4. A destructive staging plan: staging waits without a failed job, and no
//      later wave runs.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { BINARY } from "../_helpers/binary.ts";
import { type GitlabRun, runGitlab } from "../_helpers/gitlab_runner.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FILE = "e2e.gitlab-ci.yml";
const PROD = ".chant/waves/e2e/wave-3.gitlab-ci.yml";
/** Every target, once each: the apply log once every wave applied. */
const EVERY_TARGET = ["dev", "eu", "stg-1", "stg-2", "stg-3", "us"];
const STAGING = [
  "wave-2-staging-decide",
  "wave-2-staging-share-1",
  "wave-2-staging-share-2",
];

function specText(world: string): string {
  return JSON.stringify(
    {
      name: "e2e",
      plan: ["sh", "examples/tools/plan.sh", "{target}", "{plan}"],
      apply: ["sh", "tools/apply.sh", "{target}", "{plan}"],
      pipeline: {
        variables: { DEMO_WORLD: world },
        install: `export PATH="${join(world, "..", "bin")}:$PATH"`,
      },
      waves: [
        { name: "dev", gate: "never", runs: ["dev"] },
        {
          name: "staging",
          gate: "on-destructive",
          runs: ["stg-1", "stg-2", "stg-3"],
          shares: 2,
        },
        {
          name: "prod",
          gate: "always",
          runs: ["eu", "us"],
          approvers: { required: 2 },
          jobs: [
            { name: "eu", runs: ["eu"] },
            { name: "us", runs: ["us"] },
          ],
        },
      ],
    },
    null,
    2,
  );
}

/** The line of `lines` that starts with `start`. */
function lineOf(lines: readonly string[], start: string): string | undefined {
  return lines.find((line) => line.startsWith(start));
}

/** Every job that ran ended well: none failed, none with an allowed failure. */
function noneFailed(run: GitlabRun) {
  expect({ failed: run.failed, warned: run.warned }).toEqual({
    failed: [],
    warned: [],
  });
}

Deno.test({
  name:
    "renderGitlab() under gitlab-ci-local: no click when nothing waits, one click per approver, blocked not failed, re-runs apply nothing twice",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const files: Record<string, string> = {
    ".gitignore": ".chant/\n.gitlab-ci-local/\n",
    "tools/apply.sh":
      'sh examples/tools/apply.sh "$@" && echo "$1" >> "$DEMO_WORLD.log"\n',
  };
  for (const tool of ["plan.sh", "apply.sh"]) {
    files[`examples/tools/${tool}`] = await Deno.readTextFile(
      join(ROOT, "examples/tools", tool),
    );
  }
  for (const target of ["dev", "stg-1", "stg-2", "stg-3", "eu", "us"]) {
    files[`examples/desired/${target}`] = `${target} v1\n`;
  }
  await using repo = await tempRepo(files);
  const world = join(repo.root, "world");
  await Deno.mkdir(join(repo.root, "bin"));
  await Deno.symlink(BINARY, join(repo.root, "bin", "chant-wave"));
  const base = await repo.commit("the spec", { "waves.json": specText(world) });
  const rendered = await new Deno.Command(BINARY, {
    args: ["pipeline", "gitlab", "--spec", "waves.json"],
    cwd: repo.path,
    env: repo.env,
    clearEnv: true,
  }).output();
  expect(new TextDecoder().decode(rendered.stderr)).toContain(
    "play the wave's manual job wave-<k>-<name>-approve-<i> in the pipeline; a click needs no token",
  );
  let head = await repo.commit("the pipeline");
  const remote = join(repo.root, "remote.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", remote);
  await repo.git("remote", "add", "origin", remote);
  await repo.git("push", "-q", "origin", "main");
  let before = base;
  /** A push: commit, push, and the pipeline's CI_COMMIT_BEFORE_SHA moves on. */
  const push = async (message: string) => {
    before = head;
    head = await repo.commit(message);
    await repo.git("push", "-q", "origin", "main");
  };
  const env = { ...repo.env, PATH: "/usr/bin:/bin" };
  const pipeline = (login = "eve") =>
    runGitlab(repo.path, {
      file: FILE,
      env,
      variables: { GITLAB_USER_LOGIN: login, CI_COMMIT_BEFORE_SHA: before },
    });
  /** Runs jobs of prod's child pipeline as `login`, playing them when manual. */
  const child = (jobs: string[], login: string, manual = false) =>
    runGitlab(repo.path, {
      file: PROD,
      env,
      jobs,
      manual: manual ? jobs : [],
      variables: { GITLAB_USER_LOGIN: login, CI_COMMIT_BEFORE_SHA: before },
    });
  const play = (job: string, login: string) => child([job], login, true);
  const applies = async () =>
    (await Deno.readTextFile(`${world}.log`).catch(() => "")).split("\n")
      .filter(Boolean).sort();

  await t.step(
    "a change with no destructive plan: dev and staging apply, no click, nothing failed; prod blocks at its approve jobs",
    async () => {
      const run = await pipeline();
      noneFailed(run);
      for (
        const job of ["wave-1-dev", ...STAGING, "wave-3-prod-decide"]
      ) expect(run.passed).toContain(job);
      expect(run.lines.get("wave-2-staging-decide")).toContain(
        "child pipeline .chant/waves/e2e/wave-2.gitlab-ci.yml: the wave goes on",
      );
      const prod = run.lines.get("wave-3-prod-decide")!;
      expect(prod).toContain(
        "approve on GitLab: play the manual job wave-3-prod-approve-1 in this pipeline",
      );
      const forge = prod.indexOf(
        "approve on GitLab: play the manual job wave-3-prod-approve-1 in this pipeline",
      );
      expect(prod[forge + 1]).toMatch(
        /^then approve: chant-wave approve e2e e2e-wave-3 --plan sha256:[0-9a-f]{64} --ledger git$/,
      );
      expect(run.blocked).toBe("wave-3-prod-approve-2");
      expect(await applies()).toEqual(["dev", "stg-1", "stg-2", "stg-3"]);
    },
  );

  await t.step(
    "two approvers, a click each: ann's first passes, her second counts nothing new and says who must click, bob's passes and the groups apply",
    async () => {
      const first = await play("wave-3-prod-approve-1", "ann");
      noneFailed(first);
      expect(first.passed).toEqual(["wave-3-prod-approve-1"]);
      const said = first.lines.get("wave-3-prod-approve-1")!;
      expect(lineOf(said, "1 of 2 approvals")).toMatch(
        /^1 of 2 approvals of sha256:[0-9a-f]{64}: ann; waiting for another approver$/,
      );
      expect(said).toContain(
        "approve on GitLab: play the manual job wave-3-prod-approve-2 in this pipeline",
      );
      const again = await play("wave-3-prod-approve-2", "ann");
      expect(again.failed).toEqual([
        { job: "wave-3-prod-approve-2", code: 3 },
      ]);
      const lines = again.lines.get("wave-3-prod-approve-2")!;
      expect(lines[0]).toMatch(
        /^ann approved sha256:[0-9a-f]{64} already at \S+Z; 1 of 2 approvals$/,
      );
      expect(lines).toContain(
        "error: wave-3-prod-approve-2 passes once 2 approvals count; retry it as an approver other than ann",
      );
      const second = await play("wave-3-prod-approve-2", "bob");
      noneFailed(second);
      expect(
        lineOf(second.lines.get("wave-3-prod-approve-2")!, "2 of 2 approvals"),
      ).toMatch(/^2 of 2 approvals of sha256:[0-9a-f]{64}: ann, bob$/);
      // GitLab now runs the jobs that need the last approve job.
      const groups = await child(["wave-3-prod-eu", "wave-3-prod-us"], "eve");
      noneFailed(groups);
      expect(groups.passed.sort()).toEqual([
        "wave-3-prod-eu",
        "wave-3-prod-us",
      ]);
      expect(groups.lines.get("wave-3-prod-eu")).toContain(
        'wave 3 "prod": approved since it was decided, by ann, bob',
      );
      expect(await applies()).toEqual(EVERY_TARGET);
    },
  );

  await t.step(
    "the finished pipeline again: every job passes, nothing applies twice",
    async () => {
      const run = await pipeline();
      expect({ code: run.code, blocked: run.blocked }).toEqual({
        code: 0,
        blocked: undefined,
      });
      noneFailed(run);
      // (A gate job, gitlab-ci-local's trigger job, logs no end of its own.)
      expect(run.passed.sort()).toEqual([
        "wave-1-dev",
        ...STAGING,
        "wave-3-prod-decide",
        "wave-3-prod-eu",
        "wave-3-prod-us",
      ]);
      expect(await applies()).toEqual(EVERY_TARGET);
    },
  );

  await t.step(
    "a destructive staging plan waits without a failed job, and no later wave runs",
    async () => {
      await Deno.remove(join(repo.path, "examples/desired/stg-2"));
      await push("retire stg-2");
      const run = await pipeline();
      noneFailed(run);
      expect(run.passed).toContain("wave-2-staging-decide");
      expect(run.lines.get("wave-2-staging-decide")).toContain(
        "approve on GitLab: play the manual job wave-2-staging-approve-1 in this pipeline",
      );
      expect(run.blocked).toBe("wave-2-staging-approve-1");
      expect(run.lines.has("wave-3-prod-decide")).toBe(false);
      expect(await Deno.readTextFile(join(world, "stg-2"))).toBe("stg-2 v1\n");
    },
  );

  await t.step(
    "a typo pushed, then fixed: the next push's dev wave applies",
    async () => {
      await Deno.writeTextFile(
        join(repo.path, "waves.json"),
        specText(world).replace('"gate": "never"', '"gate": "nevr"'),
      );
      await push("a typo");
      await Deno.writeTextFile(join(repo.path, "waves.json"), specText(world));
      await Deno.writeTextFile(
        join(repo.path, "examples/desired/dev"),
        "dev v2\n",
      );
      await push("the typo fixed, and dev v2");
      const run = await runGitlab(repo.path, {
        file: FILE,
        env,
        jobs: ["wave-1-dev"],
        variables: { GITLAB_USER_LOGIN: "eve", CI_COMMIT_BEFORE_SHA: before },
      });
      noneFailed(run);
      expect(run.passed).toEqual(["wave-1-dev"]);
      expect(await Deno.readTextFile(join(world, "dev"))).toBe("dev v2\n");
    },
  );
});

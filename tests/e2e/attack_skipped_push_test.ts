// End to end through the binary: a commit pushed where no job ran (`[skip ci]`,
// a cancelled pipeline) becomes the commit before the next push, but the next
// job applies what it changed. So the job also reads the rules at the last
// trusted decision the ledger records (SPEC.md §4.4) and its authors are the
// change's (§12.1): a loosening pushed on its own governs nothing until a job
// has run it as a change.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const DEV = { name: "dev", gate: "never", runs: ["d1"] };
const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const sha12 = (sha: string) => sha.slice(0, 12);
const json = (spec: Record<string, unknown>) =>
  JSON.stringify(spec, null, 2) + "\n";
const pushOf = (before: string) => ({
  GITLAB_CI: "true",
  CI_PIPELINE_SOURCE: "push",
  CI_COMMIT_BEFORE_SHA: before,
});

Deno.test("a loosening pushed where no job ran does not govern the next push", async (t) => {
  await using r = await rollout(specOf([DEV, PROD]));
  const decided = await r.repo.commit("a change", { "a.txt": "a" });
  await t.step("a push's job records a trusted decision", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], pushOf(r.head));
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `base ${sha12(r.head)}: the commit before the push\n`,
    );
  });
  const loose = await r.repo.commit("loosen prod [skip ci]", {
    "waves.json": json(specOf([DEV, { ...PROD, gate: "never" }])),
  });
  await r.repo.commit("anything", { "b.txt": "b" });
  await t.step(
    "the next push reads the last decision's rules too",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "2"], pushOf(loose));
      expect(out.stderr).toContain(
        `base ${
          sha12(loose)
        }: the commit before the push, and the last trusted decision ${
          sha12(decided)
        } (the commits since it were never decided)\n`,
      );
      expect(out.stderr).toContain('policy of wave 2 "prod": always (');
      expect(out.code).toBe(3);
      expect(await r.applied()).toEqual(["d1"]);
    },
  );
});

Deno.test("a push right after a decided one reads only the commit before it", async () => {
  await using r = await rollout(specOf([DEV, PROD]));
  const first = await r.repo.commit("a change", { "a.txt": "a" });
  expect((await r.run(["run", ...SPEC, "--wave", "1"], pushOf(r.head))).code)
    .toBe(0);
  await r.repo.commit("the next change", { "b.txt": "b" });
  const out = await r.run(["run", ...SPEC, "--wave", "1"], pushOf(first));
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    `base ${sha12(first)}: the commit before the push\n`,
  );
});

Deno.test("selfApproval: false: the author of a commit no job ran is the change's", async () => {
  await using r = await rollout(
    specOf([DEV, PROD], { approvers: { selfApproval: false } }),
  );
  const decided = await r.repo.commit("a change", { "a.txt": "a" });
  expect((await r.run(["run", ...SPEC, "--wave", "1"], pushOf(r.head))).code)
    .toBe(0);
  // eve pushes her change to prod on its own, where no job runs.
  await r.desire("eu", "v2");
  await r.repo.git("add", "-A");
  await r.repo.git(
    "commit",
    "-q",
    "--author=Eve <eve@example.com>",
    "-m",
    "eve's change [skip ci]",
  );
  const eve = await r.repo.git("rev-parse", "HEAD");
  await r.repo.commit("bob's change", { "b.txt": "b" });
  const waiting = await r.run(["run", ...SPEC, "--wave", "2"], pushOf(eve));
  expect(waiting.code).toBe(3);
  expect(waiting.stderr).toContain(
    `the last trusted decision ${sha12(decided)}`,
  );
  const digest = plannedDigest(waiting.stderr);
  await r.run([...approveLine(waiting.stderr), "--by", "eve@example.com"]);
  const out = await r.run(["run", ...SPEC, "--wave", "2"], pushOf(eve));
  expect(out.stderr).toContain(
    `0 of 1 approval of ${digest}; not counted: eve@example.com (the change's author)`,
  );
  expect(out.code).toBe(3);
  expect(await r.applied()).toEqual(["d1"]);
});

Deno.test("in CI, a decision at a commit the default branch lacks does not stop the chain", async (t) => {
  await using r = await rollout(specOf([DEV, PROD]));
  await r.repo.git("checkout", "-q", "-b", "evil");
  const loose = await r.repo.commit("loosen prod", {
    "waves.json": json(specOf([DEV, { ...PROD, gate: "never" }])),
  });
  // An earlier job of the change's own records a decision at its commit (as
  // the change's code could write one to the ledger).
  const earlier = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--base",
    "HEAD^1",
  ]);
  expect(earlier.code).toBe(0);
  await r.repo.commit("anything", { "b.txt": "b" });
  const event = `${r.repo.root}/event.json`;
  await Deno.writeTextFile(
    event,
    JSON.stringify({ inputs: {}, repository: { default_branch: "main" } }),
  );
  const dispatch = {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "workflow_dispatch",
    GITHUB_EVENT_PATH: event,
  };
  await t.step("the chain reads past it, and prod waits", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "2"], dispatch);
    expect(out.stderr).toContain(
      "base: no trusted commit before this change (workflow_dispatch); the strictest of ",
    );
    expect(out.stderr).toContain(sha12(loose));
    expect(out.stderr).toContain(sha12(r.base));
    expect(out.stderr).toContain('policy of wave 2 "prod": always (');
    expect(out.code).toBe(3);
    expect(await r.applied()).toEqual(["d1"]);
  });
  await t.step(
    "an event that names no default branch stops nowhere",
    async () => {
      await Deno.writeTextFile(event, JSON.stringify({ inputs: {} }));
      const out = await r.run(["run", ...SPEC, "--wave", "2"], dispatch);
      expect(out.stderr).toContain('policy of wave 2 "prod": always (');
      expect(out.code).toBe(3);
    },
  );
});

// End to end through the binary, as an attacker would mount it: with no trusted
// commit before the change (a manual run of our own rendered workflow, a GitLab
// web pipeline on a merge whose first parent is the feature branch, a force
// push), chant-wave never falls back to HEAD^1, which the change chose: it reads
// every version of the rules on the first-parent chain since the last decision
// made under a trusted base, and the strictest wins (SPEC.md §4.4).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type Rollout, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const STRICT = specOf([PROD]);
const LOOSE = specOf([{ ...PROD, gate: "never" }]);
const ZEROS = "0".repeat(40);

function json(spec: Record<string, unknown>): string {
  return JSON.stringify(spec, null, 2) + "\n";
}

const sha12 = (sha: string) => sha.slice(0, 12);

/**
 * Commits `files` as the root of an unrelated history (branch `feat`), then
 * merges main into it as the SECOND parent, keeping the new root's tree.
 */
async function mergedUnrelated(
  r: Rollout,
  message: string,
  files: Record<string, string>,
): Promise<void> {
  await r.repo.git("checkout", "-q", "--orphan", "feat");
  await r.repo.commit(message, files);
  await r.repo.git(
    "merge",
    "-q",
    "--allow-unrelated-histories",
    "-s",
    "ours",
    "-m",
    "merge main",
    "main",
  );
}

/** A repository at STRICT, then the loosening commit, then a harmless one. */
async function loosenedTwice() {
  const r = await rollout(STRICT);
  const loose = await r.repo.commit("loosen prod", {
    "waves.json": json(LOOSE),
  });
  const head = await r.repo.commit("anything", { "a.txt": "a" });
  return { r, loose, head };
}

Deno.test("a manual run of the rendered workflow reads every version since the last decision", async (t) => {
  const { r, loose } = await loosenedTwice();
  await using _ = r;
  const event = `${r.repo.root}/event.json`;
  await Deno.writeTextFile(event, JSON.stringify({ inputs: {} }));
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "workflow_dispatch",
    GITHUB_EVENT_PATH: event,
  });
  await t.step("it waits: the version before the loosening is read too", () => {
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `base: no trusted commit before this change (workflow_dispatch); the strictest of 2 versions of waves.json at ${
        sha12(loose)
      }, ${sha12(r.base)}\n`,
    );
    expect(out.stderr).toContain('policy of wave 1 "prod": always (');
  });
  expect(await r.applied()).toEqual([]);
});

Deno.test("a GitLab web pipeline on a merge whose first parent is the feature branch waits", async () => {
  await using r = await rollout(STRICT);
  await r.repo.git("checkout", "-q", "-b", "feature");
  await r.repo.commit("loosen prod", { "waves.json": json(LOOSE) });
  await r.repo.git("checkout", "-q", "-");
  await r.repo.commit("main moves on", { "m.txt": "m" });
  const main = await r.repo.git("rev-parse", "HEAD");
  await r.repo.git("checkout", "-q", "feature");
  await r.repo.git("merge", "-q", "--no-edit", main);
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "web",
    CI_COMMIT_BEFORE_SHA: ZEROS,
  });
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    "base: no trusted commit before this change (a GitLab web pipeline); the strictest of 2 versions",
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a force push waits: the commit before it is not an ancestor", async () => {
  await using r = await rollout(STRICT);
  await r.repo.git("checkout", "-q", "-b", "old");
  const old = await r.repo.commit("the tip before the force push", {
    "o.txt": "o",
  });
  await r.repo.git("checkout", "-q", "-");
  const loose = await r.repo.commit("loosen prod", {
    "waves.json": json(LOOSE),
  });
  await r.repo.commit("anything", { "a.txt": "a" });
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: old,
  });
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `warning: $CI_COMMIT_BEFORE_SHA ${
      sha12(old)
    } is not an ancestor of HEAD (a force push)`,
  );
  expect(out.stderr).toContain(
    `base: no trusted commit before this change (a force push); the strictest of 2 versions of waves.json at ${
      sha12(loose)
    }, ${sha12(r.base)}\n`,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("the chain stops at the newest decision made under a trusted base", async (t) => {
  const dev = { name: "dev", gate: "never", runs: ["d1"] };
  await using r = await rollout(specOf([dev, PROD]));
  // A reviewed change loosens prod and is pushed: its jobs run under the
  // commit before the push, which the forge names.
  const merged = await r.repo.commit("loosen prod, reviewed", {
    "waves.json": json(specOf([dev, { ...PROD, gate: "never" }])),
  });
  const push = {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: r.head,
  };
  await t.step(
    "the push's own job is judged at the commit before it",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1"], push);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `base ${sha12(r.head)}: the commit before the push\n`,
      );
    },
  );
  await r.repo.commit("anything", { "a.txt": "a" });
  await t.step(
    "a manual run after it reads back to that push only",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(out.stderr).toContain(
        `base: no trusted commit before this change (not a CI run); the strictest of 1 version of waves.json at ${
          sha12(merged)
        }\n`,
      );
      expect(out.code).toBe(0);
      expect(await r.applied()).toEqual(["d1", "eu"]);
    },
  );
});

Deno.test("a decision made under the chain rule never bounds a later chain", async () => {
  const dev = { name: "dev", gate: "never", runs: ["d1"] };
  await using r = await rollout(specOf([dev, PROD]));
  // The change's own commit runs a job (a manual run on a feature branch),
  // so the ledger records a decision at it...
  await r.repo.commit("loosen prod", {
    "waves.json": json(specOf([dev, { ...PROD, gate: "never" }])),
  });
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(0);
  // ...and the next commit still reads every version back to the root.
  await r.repo.commit("anything", { "a.txt": "a" });
  const out = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(/the strictest of 2 versions of waves\.json at /);
  expect(await r.applied()).toEqual(["d1"]);
});

Deno.test("a manual run on a branch whose history never meets the merged rules reads the default branch's too", async (t) => {
  const push = async (r: Awaited<ReturnType<typeof rollout>>) => {
    const remote = `${r.repo.root}/remote.git`;
    await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
    await r.repo.git("remote", "add", "origin", remote);
    await r.repo.git("push", "-q", "origin", "HEAD:refs/heads/main");
    await r.repo.git("fetch", "-q", "origin");
  };
  const dispatch = async (r: Awaited<ReturnType<typeof rollout>>) => {
    const event = `${r.repo.root}/event.json`;
    await Deno.writeTextFile(
      event,
      JSON.stringify({ inputs: {}, repository: { default_branch: "main" } }),
    );
    return await r.run(["run", ...SPEC, "--wave", "1"], {
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: "workflow_dispatch",
      GITHUB_EVENT_PATH: event,
    });
  };
  await t.step("an orphan branch", async () => {
    await using r = await rollout(STRICT);
    await push(r);
    const main = await r.repo.git("rev-parse", "origin/main");
    await r.repo.git("checkout", "-q", "--orphan", "evil");
    await r.repo.commit("a loose root", { "waves.json": json(LOOSE) });
    await r.repo.commit("anything", { "a.txt": "a" });
    const out = await dispatch(r);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`${sha12(main)} (main)`);
    expect(await r.applied()).toEqual([]);
  });
  await t.step("a branch forked before main tightened the gate", async () => {
    await using r = await rollout(LOOSE);
    await r.repo.git("branch", "old");
    await r.repo.commit("tighten prod", { "waves.json": json(STRICT) });
    await push(r);
    await r.repo.git("checkout", "-q", "old");
    await r.repo.commit("anything", { "a.txt": "a" });
    const out = await dispatch(r);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('policy of wave 1 "prod": always (');
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("a manual run of a merge whose first parent is an unrelated history reads the decision on its other parent", async (t) => {
  const dev = { name: "dev", gate: "never", runs: ["d1"] };
  await using r = await rollout(specOf([dev, PROD]));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const event = `${r.repo.root}/event.json`;
  const github = async (payload: Record<string, unknown>, name: string) => {
    await Deno.writeTextFile(
      event,
      JSON.stringify({ ...payload, repository: { default_branch: "main" } }),
    );
    return {
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: name,
      GITHUB_EVENT_PATH: event,
    };
  };
  const pushMain = async () => {
    await r.repo.git("push", "-q", "origin", "HEAD:refs/heads/main");
    await r.repo.git("fetch", "-q", "origin");
  };
  await pushMain();
  // The protected main's own push run: a trusted decision at r.head.
  const first = await r.run(
    ["run", ...SPEC, "--wave", "1"],
    await github({ before: r.base }, "push"),
  );
  expect(first.code).toBe(0);
  // An unrelated history loosens prod, merged with main as the SECOND parent,
  // and pushed as a fast-forward of main.
  await mergedUnrelated(r, "a loose root", {
    "waves.json": json(specOf([dev, { ...PROD, gate: "never" }])),
  });
  const merge = await r.repo.git("rev-parse", "HEAD");
  await pushMain();
  await t.step("the push run is judged at the commit before it", async () => {
    const out = await r.run(
      ["run", ...SPEC, "--wave", "2"],
      await github({ before: r.head }, "push"),
    );
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `base ${sha12(r.head)}: the commit before the push\n`,
    );
  });
  await t.step(
    "a manual run of the same commit reads the decision before it, not its own",
    async () => {
      const out = await r.run(
        ["run", ...SPEC, "--wave", "2"],
        await github({ inputs: {} }, "workflow_dispatch"),
      );
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `${sha12(r.head)} (a trusted decision before HEAD)`,
      );
      expect(out.stderr).toContain(`${sha12(merge)} (main)`);
      expect(out.stderr).toContain('policy of wave 2 "prod": always (');
    },
  );
  expect(await r.applied()).toEqual(["d1"]);
});

Deno.test("a manual run of a merge whose first parent is an unrelated history that renames the rollout away from its decisions stops", async () => {
  const dev = { name: "dev", gate: "never", runs: ["d1"] };
  await using r = await rollout(specOf([dev, PROD]));
  // The protected main's own push run: a trusted decision of "tf" at r.head.
  const first = await r.run(["run", ...SPEC, "--wave", "1"], {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: r.base,
  });
  expect(first.code).toBe(0);
  // An unrelated history names the rollout anew (no decision of that name)
  // and loosens prod, merged with main as the SECOND parent.
  await mergedUnrelated(r, "a loose root of another name", {
    "waves.json": json({
      ...specOf([dev, { ...PROD, gate: "never" }]),
      name: "tf2",
    }),
  });
  const out = await r.run(["run", ...SPEC, "--wave", "2"], {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "web",
    CI_COMMIT_BEFORE_SHA: ZEROS,
  });
  expect(out.stderr).toMatch(
    /^error: HEAD's history joins 2 unrelated histories \(roots [0-9a-f]{12}, [0-9a-f]{12}\) and the ledger records no trusted decision in it, /m,
  );
  expect(out.code).toBe(2);
  expect(await r.applied()).toEqual(["d1"]);
});

Deno.test("a manual run of a merge whose first parent is an unrelated history stops when no decision was ever recorded", async () => {
  await using r = await rollout(STRICT);
  await mergedUnrelated(r, "a loose root of the same name", {
    "waves.json": json(LOOSE),
  });
  const out = await r.run(["run", ...SPEC, "--wave", "1"], {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "web",
    CI_COMMIT_BEFORE_SHA: ZEROS,
  });
  expect(out.stderr).toContain("HEAD's history joins 2 unrelated histories");
  expect(out.stderr).toContain(
    "run the wave's push job first (it reads the commit before the push), then run this job again",
  );
  expect(out.code).toBe(2);
  expect(await r.applied()).toEqual([]);
});

Deno.test("a run outside CI of an unrelated branch that renames the rollout stops: the ledger records its spec file under the old name", async () => {
  await using r = await rollout(STRICT);
  // The rollout waits at base, so the ledger holds a pending fact of "tf" for
  // waves.json.
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(3);
  await r.repo.git("checkout", "-q", "--orphan", "evil");
  await r.repo.commit("a loose root of another name", {
    "waves.json": json({ ...LOOSE, name: "tf2" }),
  });
  await r.repo.commit("anything", { "a.txt": "a" });
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.stderr).toMatch(
    /^error: waves\.json is recorded in directory ledger \S+\/\.chant\/ledger under the rollout "tf", and "tf2" has no trusted decision: /m,
  );
  expect(out.code).toBe(2);
  expect(await r.applied()).toEqual([]);
});

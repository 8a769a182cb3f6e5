// End to end through the binary, as attack S1 mounted it: a spec whose `base`
// is relative to HEAD (`HEAD^1`, the SPEC table's default written out) or a
// `--base HEAD^1` never lets a push of two commits (the first loosening prod,
// the second the change) choose its own base, even when the ledger holds no
// earlier decision: with a commit before the push, a base must be that commit
// or an ancestor of it; with none, a relative one is ignored in favour of the
// chain rule (SPEC.md §4.4).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const DEV = { name: "dev", gate: "never", runs: ["d"] };
const PROD = { name: "prod", gate: "always", runs: ["eu"] };
const RELATIVE = specOf([DEV, PROD], { base: "HEAD^1" });
const sha12 = (sha: string) => sha.slice(0, 12);

/** Main at a spec with base HEAD^1, then one push of c1 (prod never) and c2. */
async function twoCommitPush() {
  const r = await rollout(RELATIVE);
  const c1 = await r.repo.commit("c1: loosen prod", {
    "waves.json": JSON.stringify(
      specOf([DEV, { ...PROD, gate: "never" }], { base: "HEAD^1" }),
    ),
  });
  await r.repo.commit("c2: the change", { "desired.txt": "v1" });
  return { r, c1 };
}

async function githubEvent(dir: string, payload: Record<string, unknown>) {
  const event = `${dir}/event.json`;
  await Deno.writeTextFile(event, JSON.stringify(payload));
  return event;
}

Deno.test("a spec base relative to HEAD never lets a push choose its own base", async (t) => {
  const inside = (what: string, c1: string, before: string) =>
    `warning: ${what} is ${
      sha12(c1)
    }, which is neither the commit before the push (${
      sha12(before)
    }) nor an ancestor of it: a change cannot choose its own base; reading the rules at the commit before the push instead\n`;
  await t.step("GitHub: before of the push event", async () => {
    const { r, c1 } = await twoCommitPush();
    await using _ = r;
    const event = await githubEvent(r.repo.root, { before: r.head });
    const out = await r.run(["run", ...SPEC, "--wave", "2"], {
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: "push",
      GITHUB_EVENT_PATH: event,
    });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      inside(`the spec's base "HEAD^1"`, c1, r.head),
    );
    expect(out.stderr).toContain(
      `base ${sha12(r.head)}: the commit before the push\n`,
    );
    expect(out.stderr).toContain('policy of wave 2 "prod": always (');
    expect(await r.applied()).toEqual([]);
  });
  await t.step("GitLab: $CI_COMMIT_BEFORE_SHA", async () => {
    const { r, c1 } = await twoCommitPush();
    await using _ = r;
    const out = await r.run(["run", ...SPEC, "--wave", "2"], {
      GITLAB_CI: "true",
      CI_PIPELINE_SOURCE: "push",
      CI_COMMIT_BEFORE_SHA: r.head,
    });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      inside(`the spec's base "HEAD^1"`, c1, r.head),
    );
    expect(await r.applied()).toEqual([]);
  });
  await t.step("GitLab, and the pipeline passes --base HEAD^1", async () => {
    const { r, c1 } = await twoCommitPush();
    await using _ = r;
    const out = await r.run(
      ["run", ...SPEC, "--wave", "2", "--base", "HEAD^1"],
      {
        GITLAB_CI: "true",
        CI_PIPELINE_SOURCE: "push",
        CI_COMMIT_BEFORE_SHA: r.head,
      },
    );
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(inside(`--base "HEAD^1"`, c1, r.head));
    expect(await r.applied()).toEqual([]);
  });
  await t.step("a manual run: ignored, the chain rule reads", async () => {
    const { r, c1 } = await twoCommitPush();
    await using _ = r;
    const event = await githubEvent(r.repo.root, { inputs: {} });
    const out = await r.run(
      ["run", ...SPEC, "--wave", "2", "--base", "HEAD^1"],
      {
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: "workflow_dispatch",
        GITHUB_EVENT_PATH: event,
      },
    );
    expect(out.code).toBe(3);
    for (const what of [`--base "HEAD^1"`, `the spec's base "HEAD^1"`]) {
      expect(out.stderr).toContain(
        `warning: ${what} is relative to HEAD, which the change chose, and no commit before this change is trusted: ignored; reading every version of the rules since the last recorded decision instead\n`,
      );
    }
    expect(out.stderr).toContain(
      `base: no trusted commit before this change (workflow_dispatch); the strictest of 2 versions of waves.json at ${
        sha12(c1)
      }, ${sha12(r.base)}\n`,
    );
    expect(await r.applied()).toEqual([]);
  });
});

Deno.test("a push of one commit reads the spec's base HEAD^1: the commit before it", async () => {
  await using r = await rollout(RELATIVE);
  const out = await r.run(["run", ...SPEC, "--wave", "2"], {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: r.base,
  });
  expect(out.code).toBe(3);
  expect(out.stderr).not.toContain("warning:");
  expect(out.stderr).toContain(
    `base ${sha12(r.base)}: the spec's base "HEAD^1" (read at ${
      sha12(r.base)
    })\n`,
  );
});

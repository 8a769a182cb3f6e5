// End to end through the binary: a push is judged as one change (SPEC.md §4.4):
// the base is the commit before the push when CI names a usable one.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const DEV = { name: "dev", gate: "never", runs: ["d"] };
const PROD = { name: "prod", gate: "always", runs: ["eu"] };

/** A base commit, then a push of two: the first loosens prod, the second changes anything. */
async function twoCommitPush() {
  const r = await rollout(specOf([DEV, PROD]), {
    headSpec: specOf([DEV, { ...PROD, gate: "never" }]),
  });
  await r.repo.commit("push 2: anything", { "other.txt": "x" });
  return r;
}

Deno.test("a push of two commits, the first loosening the gate, still waits", async (t) => {
  await t.step(
    "GitLab: $CI_COMMIT_BEFORE_SHA names the commit before both",
    async () => {
      await using r = await twoCommitPush();
      const out = await r.run(["run", ...SPEC, "--wave", "2"], {
        GITLAB_CI: "true",
        CI_PIPELINE_SOURCE: "push",
        CI_COMMIT_BEFORE_SHA: r.base,
      });
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `base ${r.base.slice(0, 12)}: the commit before the push\n`,
      );
      expect(out.stderr).toContain('policy of wave 2 "prod": always (read at');
    },
  );
  await t.step("GitHub: before of the push event", async () => {
    await using r = await twoCommitPush();
    const event = `${r.repo.root}/event.json`;
    await Deno.writeTextFile(event, JSON.stringify({ before: r.base }));
    const out = await r.run(["run", ...SPEC, "--wave", "2"], {
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: "push",
      GITHUB_EVENT_PATH: event,
    });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `base ${r.base.slice(0, 12)}: the commit before the push\n`,
    );
  });
  await t.step(
    "outside CI: every version back to the root, so it waits too",
    async () => {
      await using r = await twoCommitPush();
      const out = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(out.stderr).toContain(
        `base: no trusted commit before this change (not a CI run); the strictest of 2 versions of waves.json at ${
          r.head.slice(0, 12)
        }, ${r.base.slice(0, 12)}\n`,
      );
      expect(out.code).toBe(3);
    },
  );
});

Deno.test("a new branch or a force push reads every version since the last decision and says so", async (t) => {
  await t.step("all zeros: the push created the branch", async () => {
    await using r = await rollout(specOf([DEV, PROD]));
    const out = await r.run(["run", ...SPEC, "--wave", "2", "--dry-run"], {
      GITLAB_CI: "true",
      CI_PIPELINE_SOURCE: "push",
      CI_COMMIT_BEFORE_SHA: "0".repeat(40),
    });
    expect(out.stderr).toContain(
      "warning: $CI_COMMIT_BEFORE_SHA is all zeros: the push created the branch, so there is no commit before it; reading every version of the rules since the last recorded decision instead\n",
    );
    expect(out.stderr).toContain(
      `base: no trusted commit before this change (a new branch); the strictest of 1 version of waves.json at ${
        r.base.slice(0, 12)
      }\n`,
    );
  });
  await t.step("a before that is not an ancestor: a force push", async () => {
    await using r = await rollout(specOf([DEV, PROD]));
    await r.repo.git("checkout", "-q", "-b", "old", r.base);
    const gone = await r.repo.commit("rewritten away", { "x.txt": "x" });
    await r.repo.git("checkout", "-q", r.head);
    const out = await r.run(["run", ...SPEC, "--wave", "2", "--dry-run"], {
      GITLAB_CI: "true",
      CI_PIPELINE_SOURCE: "push",
      CI_COMMIT_BEFORE_SHA: gone,
    });
    expect(out.stderr).toContain(
      `warning: $CI_COMMIT_BEFORE_SHA ${
        gone.slice(0, 12)
      } is not an ancestor of HEAD (a force push); reading every version of the rules since the last recorded decision instead\n`,
    );
  });
});

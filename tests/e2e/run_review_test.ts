// End to end through the binary against a fake GitHub on 127.0.0.1 (SPEC.md
// §12, §13): a wave whose approval mode at base is `pr-review` applies on the
// merged commit once the merged pull request's review approves the head whose
// plans were recorded; a stale review leaves it waiting (exit 3) with the
// reason printed, and a ledger approval still counts; a change that switches a
// wave to `pr-review` is not approved by review (the mode is read at base); a
// dry run asks nothing; share jobs apply under the deciding job's approval
// without asking the forge; the author's own review, a standing request for
// changes, a plan moved after the review and no recorded plans each leave the
// wave waiting with their reason.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import {
  approveLine,
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const REVIEWED = [{
  name: "prod",
  gate: "always",
  runs: ["eu", "us"],
  approval: "pr-review",
}];
const AT = "2026-11-30T10:00:00Z";

/** Pull request #12 of carol, head = the rollout's head, merged as M (checked out). */
interface Merged extends AsyncDisposable {
  r: Rollout;
  fake: FakeForge;
  /** The merge commit. */
  merge: string;
  /** The CI environment of the job on M, with the token. */
  env: Record<string, string>;
}

async function merged(
  spec: Record<string, unknown>,
  headSpec?: Record<string, unknown>,
  recordPlans = true,
): Promise<Merged> {
  const r = await rollout(spec, headSpec ? { headSpec } : {});
  const fake = fakeForge("github");
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_TOKEN: fake.token,
  };
  if (recordPlans) {
    const recorded = await r.run(["run", ...SPEC, "--record-plans"], env);
    expect(recorded.code).toBe(0);
  }
  await r.repo.git("checkout", "-q", "--detach", r.base);
  await r.repo.git("merge", "-q", "--no-ff", "-m", "Merge #12", r.head);
  const merge = await r.repo.git("rev-parse", "HEAD");
  fake.state.pulls.push({
    number: 12,
    author: "carol",
    headSha: r.head,
    merged: true,
    mergeSha: merge,
  });
  fake.state.permissions.set("ann", "write");
  return {
    r,
    fake,
    merge,
    env,
    async [Symbol.asyncDispose]() {
      await fake[Symbol.asyncDispose]();
      await r[Symbol.asyncDispose]();
    },
  };
}

/** Ann's review of #12 approves `commit`. */
function annApproves(m: Merged, commit: string): void {
  m.fake.state.reviews.set(12, [
    { user: "ann", state: "APPROVED", commitId: commit, submittedAt: AT },
  ]);
}

Deno.test("run applies a pr-review wave on the merged commit once the review approves its recorded head", async (t) => {
  await using m = await merged(specOf(REVIEWED));
  const head12 = m.r.head.slice(0, 12);
  annApproves(m, m.r.head);

  await t.step("a dry run does not ask the forge, and would wait", async () => {
    const out = await m.r.run(
      ["run", ...SPEC, "--wave", "1", "--dry-run"],
      m.env,
    );
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      "gate tf-wave-1: a dry run does not ask the forge for a review approval\n",
    );
    expect(m.fake.requests).toEqual([]);
    expect(await m.r.records("tf-wave-1")).toEqual([]);
  });

  await t.step(
    "the review's approval is recorded and the wave applies",
    async () => {
      const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        'approval of wave 1 "prod": pr-review (read at ',
      );
      expect(out.stderr).toContain(
        `gate tf-wave-1: approved by the review of #12 at ${head12}: ann\n`,
      );
      expect(out.stderr).toMatch(
        /^gate tf-wave-1: approved by ann for sha256:[0-9a-f]{64} /m,
      );
      expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
      const approvals = (await m.r.records("tf-wave-1"))
        .filter((record) => record.kind === "approval");
      expect(approvals).toHaveLength(1);
      expect(approvals[0]).toMatchObject({
        by: "ann",
        note: `approved by the review of #12 at ${head12}: ann`,
      });
      expect(m.fake.protocolErrors).toEqual([]);
    },
  );

  await t.step("the applied plans are not applied again", async () => {
    await m.r.clearApplied();
    const asked = m.fake.requests.length;
    const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
    expect(out.code).toBe(0);
    expect(await m.r.applied()).toEqual([]);
    expect(m.fake.requests.length).toBe(asked);
  });
});

Deno.test("run waits on a pr-review wave whose review is stale, and says why; a ledger approval still counts", async (t) => {
  await using m = await merged(specOf(REVIEWED));
  annApproves(m, m.r.base);
  let waited = "";

  await t.step("exit 3 with the refusal reason, nothing applied", async () => {
    const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(
      `gate tf-wave-1: no review approval: stale review: ann approved #12 at ${
        m.r.base.slice(0, 12)
      }, but its head is ${m.r.head.slice(0, 12)}\n`,
    );
    expect(out.stderr).toContain("gate tf-wave-1: waiting: ");
    expect(await m.r.applied()).toEqual([]);
    const kinds = (await m.r.records("tf-wave-1")).map((r) => r.kind);
    expect(kinds).toEqual(["pending"]);
    waited = out.stderr;
  });

  await t.step(
    "a ledger approval applies without asking the forge",
    async () => {
      const approve = await m.r.run([...approveLine(waited), "--by", "bob"]);
      expect(approve.code).toBe(0);
      const asked = m.fake.requests.length;
      const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
      expect(out.code).toBe(0);
      expect(out.stderr).not.toContain("review approval");
      expect(out.stderr).not.toContain("approved by the review");
      expect(out.stderr).toMatch(/^gate tf-wave-1: approved by bob for /m);
      expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
      expect(m.fake.requests.length).toBe(asked);
    },
  );
});

Deno.test("run reads the approval mode at base: a change to pr-review is not approved by review", async () => {
  const ledger = REVIEWED.map(({ approval: _, ...wave }) => wave);
  await using m = await merged(specOf(ledger), specOf(REVIEWED));
  annApproves(m, m.r.head);
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain('approval of wave 1 "prod": ledger (read at ');
  expect(out.stderr).not.toContain("review approval");
  expect(m.fake.requests).toEqual([]);
  expect(await m.r.applied()).toEqual([]);
});

Deno.test("run --decide takes the review's approval, and share jobs apply under it from the ledger", async () => {
  const shared = REVIEWED.map((wave) => ({ ...wave, shares: 2 }));
  await using m = await merged(specOf(shared));
  annApproves(m, m.r.head);
  const decide = await m.r.run(
    ["run", ...SPEC, "--wave", "1", "--decide"],
    m.env,
  );
  expect(decide.code).toBe(0);
  expect(decide.stderr).toContain(
    `gate tf-wave-1: approved by the review of #12 at ${
      m.r.head.slice(0, 12)
    }: ann\n`,
  );
  const asked = m.fake.requests.length;
  for (const share of ["1", "2"]) {
    const out = await m.r.run(
      ["run", ...SPEC, "--wave", "1", "--share", share],
      m.env,
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('approval of wave 1 "prod": pr-review');
  }
  expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
  expect(m.fake.requests.length).toBe(asked);
});

Deno.test("run says why a review does not approve a pr-review wave, and waits", async (t) => {
  const cases: {
    name: string;
    recordPlans?: boolean;
    arrange: (m: Merged) => Promise<void> | void;
    reason: (m: Merged) => string;
  }[] = [
    {
      name: "the author's own review",
      arrange: (m) => {
        m.fake.state.permissions.set("carol", "write");
        m.fake.state.reviews.set(12, [
          {
            user: "carol",
            state: "APPROVED",
            commitId: m.r.head,
            submittedAt: AT,
          },
        ]);
      },
      reason: () => "the author's own review doesn't count: carol approved #12",
    },
    {
      name: "a writer's standing request for changes",
      arrange: (m) => {
        annApproves(m, m.r.head);
        m.fake.state.permissions.set("dan", "write");
        m.fake.state.reviews.get(12)!.push({
          user: "dan",
          state: "CHANGES_REQUESTED",
          commitId: m.r.head,
          submittedAt: AT,
        });
      },
      reason: () => "dan requested changes to #12, and that request stands",
    },
    {
      name: "the plan moved after the review",
      arrange: async (m) => {
        annApproves(m, m.r.head);
        await m.r.desire("eu", "a change made after the review");
      },
      reason: (m) =>
        `the plan moved after the review: #12 at ${
          m.r.head.slice(0, 12)
        } recorded `,
    },
    {
      name: "no recorded plans",
      recordPlans: false,
      arrange: (m) => annApproves(m, m.r.head),
      reason: (m) =>
        `no recorded plans for #12 at its head ${
          m.r.head.slice(0, 12)
        }: its pipeline runs chant-wave run --record-plans`,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using m = await merged(
        specOf(REVIEWED),
        undefined,
        c.recordPlans ?? true,
      );
      await c.arrange(m);
      const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        `gate tf-wave-1: no review approval: ${c.reason(m)}`,
      );
      expect(await m.r.applied()).toEqual([]);
      const kinds = (await m.r.records("tf-wave-1")).map((r) => r.kind);
      expect(kinds).toEqual(["pending"]);
    });
  }
});

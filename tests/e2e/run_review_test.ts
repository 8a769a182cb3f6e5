// End to end through the binary against a fake forge on 127.0.0.1 (SPEC.md
// §12, §13): a wave whose approval mode at base is `forge` (or its old name
// `pr-review`) applies on the merged commit once the merged pull request's
// review approves the head whose plans the pull-request job handed over, on
// GitHub, Forgejo and GitLab; a stale review leaves it waiting (exit 3) with the
// reason printed, and then a sealed approval still counts; a change that
// switches a wave to `forge` is not approved by review (the mode is read at
// base); a dry run asks nothing; share jobs confirm the review again before they
// apply; the author's own review, a standing request for changes, a plan moved
// after the review and no recorded plans each leave the wave waiting with their
// reason.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  type MergedPull,
  mergedPull,
  REVIEWED_AT,
} from "../_helpers/merged_pull.ts";
import { approveLine, SPEC, specOf } from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";

const REVIEWED = [{
  name: "prod",
  gate: "always",
  runs: ["eu", "us"],
  approval: "forge",
}];
const SIGNERS = ".chant-wave/allowed_signers";

for (const forge of ["github", "forgejo", "gitlab"] as const) {
  Deno.test(`run applies a forge wave on the merged commit once the review approves its recorded head (${forge})`, async (t) => {
    await using m = await mergedPull(specOf(REVIEWED), { forge });
    const head12 = m.r.head.slice(0, 12);
    m.approves("ann", m.r.head);

    await t.step(
      "a dry run does not ask the forge, and would wait",
      async () => {
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
      },
    );

    await t.step(
      "the review's approval is recorded, confirmed and the wave applies",
      async () => {
        const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
        expect(out.code).toBe(0);
        expect(out.stderr).toContain(
          `approval of wave 1 "prod": forge, or sealed by ${SIGNERS} (read as the policy above)\n`,
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
      const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
      expect(out.code).toBe(0);
      expect(await m.r.applied()).toEqual([]);
      const approvals = (await m.r.records("tf-wave-1"))
        .filter((record) => record.kind === "approval");
      expect(approvals).toHaveLength(1);
    });
  });
}

Deno.test('run reads "pr-review" at base as forge', async () => {
  const old = REVIEWED.map((wave) => ({ ...wave, approval: "pr-review" }));
  await using m = await mergedPull(specOf(old));
  m.approves("ann", m.r.head);
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain('approval of wave 1 "prod": forge, or sealed');
  expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
});

Deno.test("run waits on a forge wave whose review is stale, and says why; a sealed approval then counts", async (t) => {
  await using keys = await tempDir();
  const bob = await makeKey(keys.path, "bob");
  await using m = await mergedPull(specOf(REVIEWED), {
    files: { [SIGNERS]: signersFile({ "bob@example.com": bob }) },
  });
  m.approves("ann", m.r.base);
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
    "an approval sealed by a key listed at base applies",
    async () => {
      const approve = await m.r.run([
        ...approveLine(waited),
        "--by",
        "bob@example.com",
        "--sign",
        bob.path,
      ]);
      expect(approve.code).toBe(0);
      const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
      expect(out.code).toBe(0);
      expect(out.stderr).not.toContain("approved by the review");
      expect(out.stderr).toMatch(
        /^gate tf-wave-1: approved by bob@example\.com for /m,
      );
      expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
    },
  );
});

Deno.test("run reads the approval mode at base: a change to forge is not approved by review", async () => {
  const ledger = REVIEWED.map(({ approval: _, ...wave }) => wave);
  await using m = await mergedPull(specOf(ledger), {
    headSpec: specOf(REVIEWED),
  });
  m.approves("ann", m.r.head);
  const out = await m.r.run(["run", ...SPEC, "--wave", "1"], m.env);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `policy of wave 1 "prod": always (read at ${m.r.base.slice(0, 12)}`,
  );
  expect(out.stderr).toContain(
    'approval of wave 1 "prod": ledger (read as the policy above)\n',
  );
  expect(out.stderr).not.toContain("review approval");
  expect(m.fake.requests).toEqual([]);
  expect(await m.r.applied()).toEqual([]);
});

Deno.test("run --decide takes the review's approval, and share jobs confirm it through the forge before they apply", async () => {
  const shared = REVIEWED.map((wave) => ({ ...wave, shares: 2 }));
  await using m = await mergedPull(specOf(shared));
  m.approves("ann", m.r.head);
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
  for (const share of ["1", "2"]) {
    const asked = m.fake.requests.length;
    const out = await m.r.run(
      ["run", ...SPEC, "--wave", "1", "--share", share],
      m.env,
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('approval of wave 1 "prod": forge');
    expect(m.fake.requests.length).toBeGreaterThan(asked);
  }
  expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
  const approvals = (await m.r.records("tf-wave-1"))
    .filter((record) => record.kind === "approval");
  expect(approvals).toHaveLength(1);
});

Deno.test("run says why a review does not approve a forge wave, and waits", async (t) => {
  const cases: {
    name: string;
    recordPlans?: boolean;
    arrange: (m: MergedPull) => Promise<void> | void;
    reason: (m: MergedPull) => string;
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
            submittedAt: REVIEWED_AT,
          },
        ]);
      },
      reason: () => "the author's own review doesn't count: carol approved #12",
    },
    {
      name: "a writer's standing request for changes",
      arrange: (m) => {
        m.approves("ann", m.r.head);
        m.fake.state.permissions.set("dan", "write");
        m.fake.state.reviews.get(12)!.push({
          user: "dan",
          state: "CHANGES_REQUESTED",
          commitId: m.r.head,
          submittedAt: REVIEWED_AT,
        });
      },
      reason: () => "dan requested changes to #12, and that request stands",
    },
    {
      name: "the plan moved after the review",
      arrange: async (m) => {
        m.approves("ann", m.r.head);
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
      arrange: (m) => m.approves("ann", m.r.head),
      reason: (m) =>
        `no recorded plans for #12 at its head ${
          m.r.head.slice(0, 12)
        }: its pipeline runs chant-wave run --record-plans`,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using m = await mergedPull(specOf(REVIEWED), {
        recordPlans: c.recordPlans ?? true,
      });
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

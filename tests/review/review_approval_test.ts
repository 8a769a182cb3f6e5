// The review-approval stage in-process (SPEC.md §13) against the fake forges,
// with a real git repository (a pull request's head, merged with a merge
// commit), plans recorded at the head by the binary (`run --record-plans`,
// which posts commit statuses to the fake GitHub and Forgejo, and writes the
// file a fake GitLab then keeps as the job's artifact) and a real directory
// ledger: an approving review of the head by a writer approves (and the wave
// then applies through the binary); every refusal has its reason.

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { realClock } from "../../src/clock.ts";
import type { Forge } from "../../src/ci/forges.ts";
import { dirLedger } from "../../src/ledger/dir/dir_ledger.ts";
import { approvalRecord, type PlanPair } from "../../src/gate/records.ts";
import { type ReviewAnswer, reviewAsker } from "../../src/review/ask_review.ts";
import {
  reviewAction,
  reviewApproval,
  type ReviewOutcome,
} from "../../src/review/review_approval.ts";
import {
  type FakeForge,
  fakeForge,
  keepPlansArtifact,
} from "../_helpers/fake_forge.ts";
import { type Rollout, rollout, SPEC, specOf } from "../_helpers/rollout.ts";
import type { PlanClaim } from "../../src/forge/plans_handoff.ts";

const WAVES = [{ name: "prod", gate: "always", runs: ["eu", "us"] }];
const AT = "2026-11-30T10:00:00Z";

/** A merged pull request #12 of carol: head H (the rollout's head), merge commit M. */
interface Merged extends AsyncDisposable {
  r: Rollout;
  fake: FakeForge;
  /** The pull request's head. */
  head: string;
  /** The merge commit, checked out. */
  merge: string;
  /** The CI environment of the job on M. */
  env: Record<string, string>;
  /** Records the plans at the head, through the binary. */
  recordPlans(): Promise<void>;
  /** The digest and members wave 1 plans now (a dry run through the binary). */
  planned(): Promise<{ digest: string; members: PlanPair[] }>;
  /** Runs the stage in-process. */
  review(): Promise<ReviewOutcome>;
}

async function merged(forge: Forge): Promise<Merged> {
  const r = await rollout(specOf(WAVES));
  const fake = fakeForge(forge);
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
  fake.state.workflows.set("tf.yml", ["refs/heads/main"]);
  const env: Record<string, string> = forge === "gitlab"
    ? {
      GITLAB_CI: "true",
      CI_API_V4_URL: fake.apiUrl,
      CI_PROJECT_ID: "42",
      GITLAB_TOKEN: fake.token,
    }
    : {
      [forge === "github" ? "GITHUB_ACTIONS" : "FORGEJO_ACTIONS"]: "true",
      GITHUB_REPOSITORY: "octo/hello",
      GITHUB_API_URL: fake.apiUrl,
      GITHUB_TOKEN: fake.token,
    };
  const planned = async () => {
    const out = await r.run([
      "run",
      ...SPEC,
      "--wave",
      "1",
      "--decide",
      "--dry-run",
      "--json",
    ]);
    const { decision } = JSON.parse(out.stdout);
    return {
      digest: decision.digest as string,
      members: (decision.members as PlanPair[]).map((
        { target, planDigest },
      ) => ({ target, planDigest })),
    };
  };
  return {
    r,
    fake,
    head: r.head,
    merge,
    env,
    async recordPlans() {
      await r.repo.git("checkout", "-q", "--detach", r.head);
      const out = await r.run(["run", ...SPEC, "--record-plans"], env);
      expect(out.code).toBe(0);
      if (forge === "gitlab") {
        const file = ".chant/recorded-plans/tf.json";
        const text = await Deno.readTextFile(`${r.path}/${file}`);
        keepPlansArtifact(fake, 12, r.head, file, text);
      }
      await r.repo.git("checkout", "-q", "--detach", merge);
    },
    planned,
    async review() {
      const { digest, members } = await planned();
      return await reviewApproval(
        {
          name: "tf",
          gate: "tf-wave-1",
          wave: { k: 1, name: "prod" },
          digest,
          members,
        },
        reviewAsker({ name: "tf", commit: merge }, { env }),
        {
          ledger: dirLedger(`${r.path}/.chant/ledger`),
          env,
          clock: realClock,
        },
      );
    },
    async [Symbol.asyncDispose]() {
      await fake[Symbol.asyncDispose]();
      await r[Symbol.asyncDispose]();
    },
  };
}

/** Ann (a writer) approves the head on each forge. */
function annApproves(m: Merged): void {
  const { state } = m.fake;
  if (m.fake.forge === "gitlab") {
    state.versions.set(12, [{
      head: m.head,
      createdAt: "2026-11-30T09:00:00Z",
    }]);
    state.approvals.set(12, [{ user: "ann", approvedAt: AT }]);
    state.members.set("ann", { id: 5, accessLevel: 30 });
    return;
  }
  state.reviews.set(12, [
    { user: "ann", state: "APPROVED", commitId: m.head, submittedAt: AT },
  ]);
  state.permissions.set("ann", "write");
}

for (const forge of ["github", "gitlab", "forgejo"] as const) {
  Deno.test(`reviewApproval() approves by a writer's review of the head on ${forge}`, async (t) => {
    await using m = await merged(forge);
    await m.recordPlans();
    annApproves(m);
    const note = `approved by the review of #12 at ${m.head.slice(0, 12)}: ann`;
    let id = "";

    await t.step("an approval naming the review is recorded", async () => {
      const outcome = await m.review();
      expect(outcome).toMatchObject({
        approved: [{ kind: "approval", gate: "tf-wave-1", by: "ann", note }],
      });
      id = (outcome as { approved: { id: string }[] }).approved[0].id;
      const approvals = (await m.r.records("tf-wave-1"))
        .filter((record) => record.kind === "approval");
      expect(approvals).toHaveLength(1);
      expect(approvals[0]).toMatchObject({ id, by: "ann", note });
      expect(m.fake.protocolErrors).toEqual([]);
    });

    await t.step("asking again records nothing more", async () => {
      const again = await m.review();
      expect(again).toMatchObject({ approved: [{ id }] });
      const approvals = (await m.r.records("tf-wave-1"))
        .filter((record) => record.kind === "approval");
      expect(approvals).toHaveLength(1);
    });

    await t.step(
      "the wave applies under it like any ledger approval",
      async () => {
        const out = await m.r.run(["run", ...SPEC, "--wave", "1"]);
        expect(out.code).toBe(0);
        expect(out.stderr).toContain("gate tf-wave-1: approved by ann for ");
        expect((await m.r.applied()).sort()).toEqual(["eu", "us"]);
      },
    );
  });
}

Deno.test("reviewApproval() refuses with each reason of §13", async (t) => {
  const cases: {
    name: string;
    arrange(m: Merged): Promise<void> | void;
    want(m: Merged): string;
  }[] = [
    {
      name: "no merged pull request",
      arrange(m) {
        m.fake.state.pulls.length = 0;
      },
      want: (m) => `no merged pull request made ${m.merge.slice(0, 12)}`,
    },
    {
      name: "nobody approved",
      arrange(m) {
        m.fake.state.reviews.set(12, [
          {
            user: "dave",
            state: "APPROVED",
            commitId: m.head,
            submittedAt: AT,
          },
          {
            user: "ann",
            state: "COMMENTED",
            commitId: m.head,
            submittedAt: AT,
          },
        ]);
        m.fake.state.permissions.set("dave", "read");
        m.fake.state.permissions.set("ann", "write");
      },
      want: () =>
        "nobody with write access approved #12; not counted: dave (read)",
    },
    {
      name: "a stale review",
      arrange(m) {
        m.fake.state.reviews.set(12, [
          {
            user: "ann",
            state: "APPROVED",
            commitId: m.r.base,
            submittedAt: AT,
          },
        ]);
        m.fake.state.permissions.set("ann", "write");
      },
      want: (m) =>
        `stale review: ann approved #12 at ${
          m.r.base.slice(0, 12)
        }, but its head is ${m.head.slice(0, 12)}`,
    },
    {
      name: "the author's own review",
      arrange(m) {
        m.fake.state.reviews.set(12, [
          {
            user: "carol",
            state: "APPROVED",
            commitId: m.head,
            submittedAt: AT,
          },
        ]);
        m.fake.state.permissions.set("carol", "admin");
      },
      want: () => "the author's own review doesn't count: carol approved #12",
    },
    {
      name: "a standing request for changes by a writer",
      arrange(m) {
        annApproves(m);
        m.fake.state.reviews.get(12)!.push({
          user: "bob",
          state: "CHANGES_REQUESTED",
          commitId: m.head,
          submittedAt: AT,
        });
        m.fake.state.permissions.set("bob", "maintain");
      },
      want: () => "bob requested changes to #12, and that request stands",
    },
    {
      name: "no recorded plans",
      arrange(m) {
        annApproves(m);
        m.fake.state.statuses.clear();
      },
      want: (m) =>
        `no recorded plans for #12 at its head ${
          m.head.slice(0, 12)
        }: its pipeline runs chant-wave run --record-plans`,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using m = await merged("github");
      await m.recordPlans();
      await c.arrange(m);
      expect(await m.review()).toEqual({ refused: c.want(m) });
      const kinds = (await m.r.records("tf-wave-1")).map((r) => r.kind);
      expect(kinds).toEqual([]);
    });
  }

  await t.step("the plan moved after the review", async () => {
    await using m = await merged("github");
    await m.recordPlans();
    const recorded = (await m.planned()).digest;
    annApproves(m);
    await m.r.desire("eu", "v2");
    const now = (await m.planned()).digest;
    expect(now).not.toBe(recorded);
    expect(await m.review()).toEqual({
      refused: `the plan moved after the review: #12 at ${
        m.head.slice(0, 12)
      } recorded ${recorded} for wave 1 "prod", but it plans ${now} now`,
    });
  });

  await t.step("no token", async () => {
    await using m = await merged("github");
    await m.recordPlans();
    delete m.env.GITHUB_TOKEN;
    expect(await m.review()).toEqual({
      refused:
        "no forge token to read the review: set CHANT_WAVE_FORGE_TOKEN or GITHUB_TOKEN or GH_TOKEN",
    });
  });
});

const HEAD = "ab".repeat(20);
const D1 = "sha256:" + "1".repeat(64);
const D2 = "sha256:" + "2".repeat(64);
const WAVE = { k: 1, name: "prod" };
const PULL = {
  number: 12,
  author: "carol",
  merged: true,
  headSha: HEAD,
  mergeSha: "cd".repeat(20),
};
const NOTE = "approved by the review of #12 at abababababab: ann";

function approval(by: string, note?: string, digest = D1) {
  return approvalRecord({
    name: "tf",
    gate: "tf-wave-1",
    planDigest: digest,
    by,
    ...(note ? { note } : {}),
  }, { id: "a1", now: 0 });
}

function approved(claims: PlanClaim[], approvers = ["Ann"]): ReviewAnswer {
  return { approved: { pull: PULL, approvers, claims } };
}

Deno.test("reviewAction() confirms an approval naming the merged pull request's approving review", async (t) => {
  const handed = [{ from: "status 1", wave: 1, digest: D1 }];
  const cases: {
    name: string;
    answer: ReviewAnswer;
    record: ReturnType<typeof approval>;
    want: unknown;
  }[] = [
    {
      name: "confirmed, as the login the forge shows",
      answer: approved(handed),
      record: approval("ann", NOTE),
      want: { confirmed: true, login: "Ann" },
    },
    {
      name: "the review approves nothing",
      answer: { refused: "nobody with write access approved #12" },
      record: approval("ann", NOTE),
      want: {
        confirmed: false,
        why:
          "the forge does not confirm the review: nobody with write access approved #12",
      },
    },
    {
      name: "another pull request's review",
      answer: approved(handed),
      record: approval(
        "ann",
        "approved by the review of #11 at abababababab: ann",
      ),
      want: {
        confirmed: false,
        why:
          "it names the review of #11 at abababababab, but #12 at abababababab made this commit",
      },
    },
    {
      name: "another head",
      answer: approved(handed),
      record: approval(
        "ann",
        "approved by the review of #12 at 0123456789ab: ann",
      ),
      want: {
        confirmed: false,
        why:
          "it names the review of #12 at 0123456789ab, but #12 at abababababab made this commit",
      },
    },
    {
      name: "an approver the forge does not show",
      answer: approved(handed),
      record: approval("mallory", NOTE),
      want: {
        confirmed: false,
        why:
          "the forge shows no approving review of #12 at abababababab by mallory (it shows Ann)",
      },
    },
    {
      name: "hand-offs that disagree",
      answer: approved([...handed, { from: "status 2", wave: 1, digest: D2 }]),
      record: approval("ann", NOTE),
      want: {
        confirmed: false,
        why:
          `the recorded plans of #12 at abababababab disagree for wave 1 "prod": ${D1} (status 1), ${D2} (status 2)`,
      },
    },
    {
      name: "another digest than the head's",
      answer: approved(handed),
      record: approval("ann", NOTE, D2),
      want: {
        confirmed: false,
        why:
          `it approves ${D2}, but #12 at abababababab recorded ${D1} for wave 1 "prod"`,
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const kind = reviewAction(() => Promise.resolve(c.answer), WAVE);
      expect(await kind.confirm(c.record)).toEqual(c.want);
    });
  }
  await t.step(
    "an approval naming no review is not its kind's, and asks nothing",
    async () => {
      let asked = 0;
      const kind = reviewAction(() => {
        asked++;
        return Promise.resolve(approved(handed));
      }, WAVE);
      expect(await kind.confirm(approval("ann", "looks good"))).toBeUndefined();
      expect(await kind.confirm(approval("ann"))).toBeUndefined();
      expect(asked).toBe(0);
    },
  );
});

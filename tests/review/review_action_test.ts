// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { PlanClaim } from "../../src/forge/plans_handoff.ts";
import { approvalRecord } from "../../src/gate/records.ts";
import type { ReviewAnswer } from "../../src/review/ask_review.ts";
import { reviewAction } from "../../src/review/review_approval.ts";

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

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type {
  Permission,
  PullRequest,
  Review,
} from "../../src/forge/forge_client.ts";
import {
  judgeReviews,
  mergedPullRequest,
  namedReview,
  reviewNote,
  reviewStances,
} from "../../src/review/decide_review.ts";

const HEAD = "a".repeat(40);
const OLD = "b".repeat(40);
const MERGE = "c".repeat(40);
const PULL: PullRequest = {
  number: 7,
  author: "Carol",
  merged: true,
  headSha: HEAD,
  mergeSha: MERGE,
};

Deno.test("mergedPullRequest() finds the pull request merged as the commit", async (t) => {
  const open = { ...PULL, number: 8, merged: false, mergeSha: undefined };
  await t.step("by its merge commit", () => {
    expect(mergedPullRequest([open, PULL], MERGE)).toEqual(PULL);
  });
  await t.step("by its head, for a fast-forward merge", () => {
    expect(mergedPullRequest([PULL], HEAD)).toEqual(PULL);
  });
  await t.step("never an unmerged one", () => {
    expect(mergedPullRequest([{ ...open, headSha: MERGE }], MERGE))
      .toBeUndefined();
  });
});

Deno.test("reviewStances() keeps each reviewer's newest approval or request for changes", () => {
  const reviews: Review[] = [
    { user: "ann", state: "changes_requested", commitSha: OLD },
    { user: "ann", state: "approved", commitSha: HEAD },
    { user: "Ann", state: "commented", commitSha: HEAD },
    { user: "bob", state: "approved", commitSha: OLD },
    { user: "bob", state: "dismissed", commitSha: OLD },
    { user: "eve", state: "commented", commitSha: HEAD },
  ];
  expect(reviewStances(reviews)).toEqual([
    { user: "ann", state: "approved", commitSha: HEAD },
  ]);
});

Deno.test("judgeReviews() approves by writers other than the author, or says why not", async (t) => {
  const perms = (entries: [string, Permission][]) => new Map(entries);
  const cases: {
    name: string;
    stances: Review[];
    permissions: Map<string, Permission>;
    want: unknown;
  }[] = [
    {
      name: "writers who approved the head",
      stances: [
        { user: "ann", state: "approved", commitSha: HEAD },
        { user: "Bob", state: "approved", commitSha: HEAD },
        { user: "dave", state: "approved", commitSha: HEAD },
      ],
      permissions: perms([["ann", "write"], ["bob", "admin"], [
        "dave",
        "read",
      ]]),
      want: { approvers: ["ann", "Bob"] },
    },
    {
      name: "a writer's fresh approval outweighs another's stale one",
      stances: [
        { user: "ann", state: "approved", commitSha: OLD },
        { user: "bob", state: "approved", commitSha: HEAD },
      ],
      permissions: perms([["ann", "write"], ["bob", "write"]]),
      want: { approvers: ["bob"] },
    },
    {
      name: "a writer's standing request for changes",
      stances: [
        { user: "ann", state: "approved", commitSha: HEAD },
        { user: "bob", state: "changes_requested" },
      ],
      permissions: perms([["ann", "write"], ["bob", "maintain"]]),
      want: { refused: "bob requested changes to #7, and that request stands" },
    },
    {
      name: "a reader's request for changes does not block",
      stances: [
        { user: "ann", state: "approved", commitSha: HEAD },
        { user: "eve", state: "changes_requested", commitSha: HEAD },
      ],
      permissions: perms([["ann", "write"], ["eve", "triage"]]),
      want: { approvers: ["ann"] },
    },
    {
      name: "a stale review",
      stances: [{ user: "ann", state: "approved", commitSha: OLD }],
      permissions: perms([["ann", "write"]]),
      want: {
        refused:
          "stale review: ann approved #7 at bbbbbbbbbbbb, but its head is aaaaaaaaaaaa",
      },
    },
    {
      name: "an approval that names no commit",
      stances: [{ user: "ann", state: "approved" }],
      permissions: perms([["ann", "write"]]),
      want: {
        refused:
          "stale review: the forge does not say which commit ann approved in #7, so it cannot be the head aaaaaaaaaaaa",
      },
    },
    {
      name: "the author's own review",
      stances: [{ user: "carol", state: "approved", commitSha: HEAD }],
      permissions: perms([["carol", "admin"]]),
      want: {
        refused: "the author's own review doesn't count: Carol approved #7",
      },
    },
    {
      name: "nobody",
      stances: [],
      permissions: perms([]),
      want: { refused: "nobody with write access approved #7" },
    },
    {
      name: "only people without write access",
      stances: [{ user: "dave", state: "approved", commitSha: HEAD }],
      permissions: perms([]),
      want: {
        refused:
          "nobody with write access approved #7; not counted: dave (none)",
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(
        judgeReviews({
          pull: PULL,
          stances: c.stances,
          permissions: c.permissions,
        }),
      ).toEqual(c.want);
    });
  }
});

Deno.test("reviewNote() names the pull request, its head and the approvers", () => {
  expect(reviewNote(PULL, ["ann", "bob"])).toBe(
    "approved by the review of #7 at aaaaaaaaaaaa: ann, bob",
  );
});

Deno.test("namedReview() reads the review an approval's note names", async (t) => {
  await t.step("the note reviewNote() writes", () => {
    expect(namedReview(reviewNote(PULL, ["ann"]))).toEqual({
      pullRequest: 7,
      head12: "aaaaaaaaaaaa",
    });
  });
  for (
    const note of [
      undefined,
      "",
      "looks good",
      "approved by the review of #07 at aaaaaaaaaaaa: ann",
      "approved by the review of #7 at AAAAAAAAAAAA: ann",
      "approved by the review of #7 at aaaaaaaaaaa: ann",
      " approved by the review of #7 at aaaaaaaaaaaa: ann",
    ]
  ) {
    await t.step(JSON.stringify(note) ?? "no note", () => {
      expect(namedReview(note)).toBeUndefined();
    });
  }
});

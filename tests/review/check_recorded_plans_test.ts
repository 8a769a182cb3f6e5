// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { PlanClaim } from "../../src/forge/plans_handoff.ts";
import {
  checkRecordedPlans,
  recordedDigest,
} from "../../src/review/check_recorded_plans.ts";

const HEAD = "a".repeat(40);
const D1 = "sha256:" + "1".repeat(64);
const D2 = "sha256:" + "2".repeat(64);
const WAVE = { k: 1, name: "prod" };

function claim(from: string, wave: number, digest: string): PlanClaim {
  return { from, wave, digest };
}

Deno.test("recordedDigest() takes the one digest every hand-off of the head claims for the wave", async (t) => {
  const query = { pullRequest: 7, head: HEAD, wave: WAVE };
  const cases: { name: string; claims: PlanClaim[]; want: unknown }[] = [
    {
      name: "one claim",
      claims: [claim("status 1", 1, D1), claim("status 2", 2, D2)],
      want: { digest: D1 },
    },
    {
      name: "two that agree (a re-run)",
      claims: [claim("status 3", 1, D1), claim("status 1", 1, D1)],
      want: { digest: D1 },
    },
    {
      name: "none at the head",
      claims: [],
      want: {
        refused:
          "no recorded plans for #7 at its head aaaaaaaaaaaa: its pipeline runs chant-wave run --record-plans",
      },
    },
    {
      name: "none for the wave",
      claims: [claim("status 2", 2, D2)],
      want: {
        refused:
          'no recorded plans for wave 1 "prod" in the plans of #7 at aaaaaaaaaaaa',
      },
    },
    {
      name: "two that disagree (a forged status beside the real one)",
      claims: [claim("status 4", 1, D2), claim("status 1", 1, D1)],
      want: {
        refused:
          `the recorded plans of #7 at aaaaaaaaaaaa disagree for wave 1 "prod": ${D2} (status 4), ${D1} (status 1)`,
      },
    },
    {
      name: "one the wave's that cannot be read",
      claims: [
        claim("status 1", 1, D1),
        { from: "status 2", wave: 1, problem: 'its state is "failure"' },
      ],
      want: {
        refused:
          'the recorded plans of #7 at aaaaaaaaaaaa cannot be read: status 2: its state is "failure"',
      },
    },
    {
      name: "another wave's that cannot be read changes nothing",
      claims: [
        claim("status 1", 1, D1),
        { from: "status 2", wave: 2, problem: 'its state is "failure"' },
      ],
      want: { digest: D1 },
    },
    {
      name: "a file that cannot be read refuses every wave",
      claims: [
        claim("job 8's artifact", 1, D1),
        { from: "job 9's artifact", problem: "it is not a JSON object" },
      ],
      want: {
        refused:
          "the recorded plans of #7 at aaaaaaaaaaaa cannot be read: job 9's artifact: it is not a JSON object",
      },
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(recordedDigest({ ...query, claims: c.claims })).toEqual(c.want);
    });
  }
});

Deno.test("checkRecordedPlans() compares the recorded digest with the plan now", async (t) => {
  const query = { pullRequest: 7, head: HEAD, wave: WAVE, digest: D2 };
  await t.step("the same digest", () => {
    expect(checkRecordedPlans({ ...query, claims: [claim("s", 1, D2)] }))
      .toBeUndefined();
  });
  await t.step("the plan moved", () => {
    expect(checkRecordedPlans({ ...query, claims: [claim("s", 1, D1)] }))
      .toBe(
        `the plan moved after the review: #7 at aaaaaaaaaaaa recorded ${D1} for wave 1 "prod", but it plans ${D2} now`,
      );
  });
  await t.step("a refusal of recordedDigest()", () => {
    expect(checkRecordedPlans({ ...query, claims: [] })).toMatch(
      /^no recorded plans for #7/,
    );
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { newRecord } from "../../src/ledger/records.ts";
import { checkRecordedPlans } from "../../src/review/check_recorded_plans.ts";

const HEAD = "a".repeat(40);
const D1 = "sha256:" + "1".repeat(64);
const D2 = "sha256:" + "2".repeat(64);

function plans(id: string, head: string, digest: string) {
  return newRecord("recorded-plans", {
    name: "tf",
    gate: "recorded-plans",
    head,
    waves: [{ wave: 1, name: "prod", gate: "tf-wave-1", digest }],
  }, { id, now: 0 });
}

Deno.test("checkRecordedPlans() compares the newest plans recorded at the head with the plan now", async (t) => {
  const query = { pullRequest: 7, head: HEAD, gate: "tf-wave-1", digest: D2 };
  await t.step("the same digest", () => {
    const records = [plans("r1", HEAD, D1), plans("r2", HEAD, D2)];
    expect(checkRecordedPlans({ ...query, records })).toBeUndefined();
  });
  await t.step("no plans at the head", () => {
    expect(
      checkRecordedPlans({
        ...query,
        records: [plans("r1", "b".repeat(40), D2)],
      }),
    ).toBe(
      "no recorded plans for #7 at its head aaaaaaaaaaaa: its pipeline runs chant-wave run --record-plans",
    );
  });
  await t.step("no plans for the wave", () => {
    expect(
      checkRecordedPlans({
        ...query,
        gate: "tf-wave-2",
        records: [plans("r1", HEAD, D2)],
      }),
    ).toBe(
      'no recorded plans for gate "tf-wave-2" in the plans of #7 at aaaaaaaaaaaa',
    );
  });
  await t.step("the plan moved", () => {
    expect(checkRecordedPlans({ ...query, records: [plans("r1", HEAD, D1)] }))
      .toBe(
        `the plan moved after the review: #7 at aaaaaaaaaaaa recorded ${D1} for wave 1 "prod", but it plans ${D2} now`,
      );
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approvalRecord } from "../../src/gate/records.ts";
import {
  actionRefusals,
  actionsThrough,
  namesUnendedAction,
} from "../../src/gate/action_floor.ts";

const D1 = "sha256:" + "1".repeat(64);
const RUN = "https://github.com/o/r/actions/runs/";
const JOB = "https://gitlab.example/g/p/-/jobs/";

function approval(id: string, via?: string) {
  return approvalRecord({
    name: "tf",
    gate: "tf-wave-2",
    planDigest: D1,
    by: "ann",
    ...(via ? { via } : {}),
  }, { id, now: 0 });
}

Deno.test("actionsThrough() keeps the highest run and job id, carried on", async (t) => {
  await t.step("none named, none before", () => {
    expect(actionsThrough([approval("a")])).toBe(undefined);
  });
  await t.step("by number, not by text", () => {
    expect(
      actionsThrough([
        approval("a", `${RUN}9`),
        approval("b", `${RUN}10`),
        approval("c", `${JOB}70`),
      ]),
    ).toEqual({ run: "10", job: "70" });
  });
  await t.step("an earlier revoke's ids stay when higher", () => {
    expect(actionsThrough([approval("a", `${RUN}9`)], { run: "600", job: "3" }))
      .toEqual({ run: "600", job: "3" });
  });
});

Deno.test("actionRefusals(): one action approves once, and a revoke ends the actions before it", async (t) => {
  await t.step("two records naming one run: both refused", () => {
    const got = actionRefusals([
      approval("a", `${RUN}600`),
      approval("b", `${RUN}600/attempts/2`),
      approval("c", `${RUN}601`),
      approval("d"),
    ], undefined);
    const why =
      "run 600 is named by another approval record too; one action approves once";
    expect(Object.fromEntries(got)).toEqual({ a: why, b: why });
  });
  await t.step("a run or job up to the revoke's ids: refused", () => {
    const got = actionRefusals([
      approval("a", `${RUN}600`),
      approval("b", `${RUN}1000`),
      approval("c", `${JOB}70`),
      approval("d", `${JOB}71`),
    ], { run: "999", job: "70" });
    expect(Object.fromEntries(got)).toEqual({
      a: "run 600 was ended by the gate's newest revoke (it ended every run up to 999)",
      c: "job 70 was ended by the gate's newest revoke (it ended every job up to 70)",
    });
  });
});

Deno.test("namesUnendedAction() tells an approve run or job above a revoke's floor", () => {
  expect(namesUnendedAction(approval("a"), undefined)).toBe(false);
  expect(namesUnendedAction(approval("a", "https://x.example/"), undefined))
    .toBe(false);
  expect(namesUnendedAction(approval("a", `${RUN}9`), undefined)).toBe(true);
  expect(namesUnendedAction(approval("a", `${RUN}9`), { job: "99" })).toBe(
    true,
  );
  expect(namesUnendedAction(approval("a", `${RUN}9`), { run: "9" })).toBe(
    false,
  );
  expect(namesUnendedAction(approval("a", `${RUN}10`), { run: "9" })).toBe(
    true,
  );
  expect(namesUnendedAction(approval("a", `${JOB}30`), { job: "100" })).toBe(
    false,
  );
});

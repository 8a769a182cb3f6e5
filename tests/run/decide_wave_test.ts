// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { membersOf } from "../../src/run/decide_wave.ts";
import type { PlannedRun } from "../../src/run/run_outcomes.ts";

const d = (c: string) => "sha256:" + c.repeat(64);

function planned(
  target: string,
  plan: Partial<PlannedRun["plan"]>,
): PlannedRun {
  return {
    target,
    run: { target, op: "tf" },
    planPath: `plans/${target}.json`,
    plan: { planDigest: d("a"), destructive: false, empty: false, ...plan },
  };
}

Deno.test("membersOf() keeps the flags that are true, the summary and the first changes, in the record's order", () => {
  const changes = Array.from({ length: 250 }, (_, i) => ({
    address: `r.${i}`,
    action: "create",
  }));
  const members = membersOf([
    planned("plain", {}),
    planned("all", {
      destructive: true,
      empty: true,
      summary: "1 to add",
      changes,
    }),
  ]);
  expect(members[0]).toEqual({ target: "plain", planDigest: d("a"), op: "tf" });
  expect(Object.keys(members[1])).toEqual([
    "target",
    "planDigest",
    "op",
    "destructive",
    "empty",
    "summary",
    "changes",
    "moreChanges",
  ]);
  expect(members[1].changes?.length).toBe(200);
  expect(members[1].moreChanges).toBe(50);
  expect(JSON.stringify(members[0])).toBe(
    `{"target":"plain","planDigest":"${d("a")}","op":"tf"}`,
  );
});

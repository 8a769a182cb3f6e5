// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { setDigest } from "../../src/digest/set_digest.ts";
import {
  formatPlanSet,
  parsePlanSet,
  type PlanSetMember,
} from "../../src/gate/plan_set_file.ts";

const d = (c: string) => `sha256:${c.repeat(64)}`;

Deno.test("formatPlanSet() keeps a plan's quoted statements once, on the first run of its digest", () => {
  const changes = [{
    address: "drop_note",
    action: "deploy",
    statements: ["deploy/drop_note.sql:2: ALTER TABLE … DROP COLUMN: …"],
  }];
  const members: PlanSetMember[] = ["c", "a", "b"].map((target) => ({
    target,
    planDigest: d(target === "c" ? "2" : "1"),
    changes,
  }));
  const digest = setDigest(members);
  const text = formatPlanSet(digest, members);
  expect(text.match(/statements/g)?.length).toBe(2);
  const back = parsePlanSet(text, digest);
  expect(back.map((m) => [m.target, m.changes?.[0].statements !== undefined]))
    .toEqual([["a", true], ["b", false], ["c", true]]);
  expect(back[0].changes).toEqual(changes);
});

Deno.test("parsePlanSet() reads statements back bounded, and drops what is not a string", () => {
  const member = {
    target: "a",
    planDigest: d("1"),
    changes: [{
      address: "x",
      action: "deploy",
      statements: ["y".repeat(500), 7, ...Array(30).fill("s")],
    }],
  };
  const digest = setDigest([member]);
  const text = `{"version":1,"digest":"${digest}","members":[\n${
    JSON.stringify(member)
  }\n]}\n`;
  const [back] = parsePlanSet(text, digest);
  const statements = back.changes![0].statements!;
  expect(statements[0]).toBe("y".repeat(400));
  expect(statements.length).toBe(19);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  principalAllowed,
  principalMatches,
} from "../../src/gate/judge_approvals.ts";

Deno.test("principalMatches() matches * within a word, the rest literally", async (t) => {
  const cases: [string, string, boolean][] = [
    ["ann@platform.example", "*@platform.example", true],
    ["ann@example.com", "*@platform.example", false],
    ["ann@platform.example", "ann@platform.example", true],
    ["ann@platform.example", "*", true],
    ["ann@platform.example", "a*@*.example", true],
    ["@platform.example", "*@platform.example", true],
    ["ann@platform.example", "?nn@platform.example", false],
    ["a?n@x", "a?n@x", true],
    ["a.n.n@x", "a.n.n@x", true],
    ["ann@x", "ANN@X", true],
    ["ann@x", " ann@x ", true],
    ["ann smith@x", "*@x", false],
    ["", "*", false],
  ];
  for (const [principal, pattern, want] of cases) {
    await t.step(`${JSON.stringify(principal)} ~ ${pattern}: ${want}`, () => {
      expect(principalMatches(principal, pattern)).toBe(want);
    });
  }
  await t.step("stays fast on patterns of many stars", () => {
    const principal = "a".repeat(256);
    expect(principalMatches(principal, "*a".repeat(120) + "b")).toBe(false);
  });
});

Deno.test("principalAllowed() needs a match in every list", () => {
  expect(principalAllowed("anyone", [])).toBe(true);
  expect(principalAllowed("ann@a.example", [["*@a.example"], ["ann@*"]]))
    .toBe(true);
  expect(principalAllowed("bob@a.example", [["*@a.example"], ["ann@*"]]))
    .toBe(false);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  globMatches,
  matchesPatternList,
  parsePatternList,
} from "../../src/seal/pattern_list.ts";

Deno.test("globMatches() matches * and ? over whole values", async (t) => {
  const cases: [string, string, boolean][] = [
    ["ann@example.com", "ann@example.com", true],
    ["ann@example.com", "ann@example.co", false],
    ["ann@example.com", "*@example.com", true],
    ["ann@sub.example.com", "*@example.com", false],
    ["ann@sub.example.com", "*example.com", true],
    ["ann@example.com", "a?n@*", true],
    ["an@example.com", "a?n@*", false],
    ["", "*", true],
    ["", "", true],
    ["x", "", false],
    ["abc", "a*b*c", true],
    ["abXbc", "a*bc", true],
    ["😀@x", "?@x", true],
    ["a.b", "a?b", true],
    ["[a]", "[a]", true],
  ];
  for (const [value, pattern, want] of cases) {
    await t.step(
      `${JSON.stringify(value)} ~ ${JSON.stringify(pattern)}`,
      () => expect(globMatches(value, pattern)).toBe(want),
    );
  }
});

Deno.test("globMatches() stays fast on patterns that make backtracking matchers explode", () => {
  const value = "a".repeat(200);
  expect(globMatches(value, `${"*a".repeat(100)}b`)).toBe(false);
  expect(globMatches(value, "*a".repeat(100))).toBe(true);
});

Deno.test("matchesPatternList() needs a positive match and no negated one", async (t) => {
  const list = parsePatternList("*@example.com,!eve@example.com,bob@other.org");
  const cases: [string, boolean][] = [
    ["ann@example.com", true],
    ["eve@example.com", false],
    ["bob@other.org", true],
    ["ann@other.org", false],
  ];
  for (const [value, want] of cases) {
    await t.step(
      value,
      () => expect(matchesPatternList(value, list)).toBe(want),
    );
  }
  await t.step("a negation alone matches nothing", () => {
    expect(matchesPatternList("ann@x", parsePatternList("!eve@x"))).toBe(false);
  });
  await t.step("a negation wins in any position", () => {
    expect(matchesPatternList("eve@x", parsePatternList("!eve@x,*"))).toBe(
      false,
    );
  });
});

Deno.test("parsePatternList() normalises each pattern after taking off its !", () => {
  expect(parsePatternList("Ann@X, !EVE@x", (p) => p.trim().toLowerCase()))
    .toEqual([
      { negated: false, pattern: "ann@x" },
      { negated: true, pattern: "eve@x" },
    ]);
});

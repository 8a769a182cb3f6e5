// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  compilePattern,
  matchesPattern,
} from "../../src/spec/group_pattern.ts";

Deno.test("matchesPattern() matches targets as SPEC.md §3.3 and the module doc say", async (t) => {
  const cases: {
    name: string;
    pattern: string;
    yes: string[];
    no: string[];
  }[] = [
    {
      name: "an exact target matches only itself",
      pattern: "prod-eu",
      yes: ["prod-eu"],
      no: ["prod-eu-1", "xprod-eu", "prod", ""],
    },
    {
      name: "* stays within one segment, possibly empty",
      pattern: "live/*/vpc",
      yes: ["live/prod/vpc", "live/dev/vpc", "live//vpc"],
      no: ["live/prod/eu/vpc", "live/vpc"],
    },
    {
      name: "* alone matches every target without a slash",
      pattern: "*",
      yes: ["dev", "tenant-42", ""],
      no: ["live/dev", "/"],
    },
    {
      name: "* inside a segment",
      pattern: "tenant-*",
      yes: ["tenant-", "tenant-42"],
      no: ["tenant-4/2", "tenant"],
    },
    {
      name: "** alone matches everything",
      pattern: "**",
      yes: ["", "dev", "live/prod/eu/vpc", "/"],
      no: [],
    },
    {
      name: "a/**/b also matches a/b",
      pattern: "a/**/b",
      yes: ["a/b", "a/x/b", "a/x/y/b"],
      no: ["a/xb", "ab", "a/b/c", "b"],
    },
    {
      name: "a leading **/ matches no segment too",
      pattern: "**/vpc",
      yes: ["vpc", "live/vpc", "live/prod/vpc"],
      no: ["livevpc", "vpc/x"],
    },
    {
      name: "a trailing /** matches under the prefix, not the prefix itself",
      pattern: "live/**",
      yes: ["live/", "live/prod", "live/prod/eu"],
      no: ["live", "lived/x"],
    },
    {
      name: "** inside a segment crosses slashes",
      pattern: "a**b",
      yes: ["ab", "axb", "a/x/b"],
      no: ["a/x/c"],
    },
    {
      name: "three or more stars are **",
      pattern: "a/***",
      yes: ["a/", "a/x/y"],
      no: ["b/x"],
    },
    {
      name: "regular-expression specials are literal",
      pattern: "a.b+c?(d)[e]{f}|^$\\",
      yes: ["a.b+c?(d)[e]{f}|^$\\"],
      no: ["axbbc(d)e{f}", "a.b+c"],
    },
    {
      name: "? is literal, not one character",
      pattern: "t?",
      yes: ["t?"],
      no: ["t1"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      for (const target of c.yes) {
        expect({ target, match: matchesPattern(c.pattern, target) })
          .toEqual({ target, match: true });
      }
      for (const target of c.no) {
        expect({ target, match: matchesPattern(c.pattern, target) })
          .toEqual({ target, match: false });
      }
    });
  }
});

Deno.test("compilePattern() returns an anchored RegExp to reuse", () => {
  const pattern = compilePattern("tenant-*");
  expect(pattern.test("tenant-1")).toBe(true);
  expect(pattern.test("tenant-2")).toBe(true);
  expect(pattern.test("x-tenant-1")).toBe(false);
  expect(pattern.source.startsWith("^")).toBe(true);
  expect(pattern.source.endsWith("$")).toBe(true);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { indexJsonc, positionAt } from "../../src/spec/_locate.ts";
import { lines } from "./_helpers.ts";

const TEXT = lines(
  '// a comment with { and [ and "',
  "{",
  '  "a": 1, /* "b": 2, */ "b": [true, null, -1.5e3],',
  '  "c\\"d": { "e": "x}\\"y", "f": [] },',
  "  // trailing comma",
  '  "g": [{ "h": "i" },],',
  "}",
);

Deno.test("indexJsonc() locates values and keys by path", async (t) => {
  const locator = indexJsonc(TEXT);
  const cases: {
    name: string;
    path: (string | number)[];
    key?: boolean;
    want: [number, number];
  }[] = [
    { name: "the root", path: [], want: [2, 1] },
    { name: "a value", path: ["a"], want: [3, 8] },
    { name: "a key", path: ["a"], key: true, want: [3, 3] },
    { name: "past a block comment", path: ["b"], key: true, want: [3, 25] },
    { name: "array items", path: ["b", 2], want: [3, 43] },
    { name: "an escaped key", path: ['c"d'], key: true, want: [4, 3] },
    {
      name: "after a string holding } and an escaped quote",
      path: ['c"d', "f"],
      want: [4, 32],
    },
    { name: "an empty array", path: ['c"d', "f"], key: true, want: [4, 27] },
    { name: "inside an array of objects", path: ["g", 0, "h"], want: [6, 16] },
    {
      name: "a missing key falls back to its object",
      path: ["g", 0, "zz"],
      want: [6, 9],
    },
    {
      name: "a missing index falls back to its array",
      path: ["g", 5],
      want: [6, 8],
    },
    {
      name: "the key of the root is the root",
      path: [],
      key: true,
      want: [2, 1],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const { line, col } = locator.locate(c.path, c.key);
      expect([line, col]).toEqual(c.want);
    });
  }
});

Deno.test("positionAt() turns offsets into 1-based lines and columns", () => {
  expect(positionAt("ab\ncd", 0)).toEqual({ line: 1, col: 1 });
  expect(positionAt("ab\ncd", 2)).toEqual({ line: 1, col: 3 });
  expect(positionAt("ab\ncd", 3)).toEqual({ line: 2, col: 1 });
  expect(positionAt("ab\ncd", 99)).toEqual({ line: 2, col: 3 });
  expect(positionAt("", 0)).toEqual({ line: 1, col: 1 });
});

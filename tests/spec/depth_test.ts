// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tooDeepAt } from "../../src/spec/parse_spec.ts";

Deno.test("tooDeepAt() finds the first bracket past the bound, skipping strings and comments", () => {
  expect(tooDeepAt("[[1]]", 2)).toBeUndefined();
  expect(tooDeepAt("[[1]]", 1)).toBe(1);
  expect(tooDeepAt('{"a": "[[[[", "b": "\\"[["}', 1)).toBeUndefined();
  expect(tooDeepAt("// [[[\n/* {{{ */ [1]", 1)).toBeUndefined();
  expect(tooDeepAt("[".repeat(100_000), 64)).toBe(64);
});

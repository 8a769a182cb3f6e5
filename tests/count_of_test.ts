// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { countOf } from "../src/count_of.ts";

Deno.test("countOf() adds an s to every count but one", () => {
  expect(countOf(0, "run")).toBe("0 runs");
  expect(countOf(1, "run")).toBe("1 run");
  expect(countOf(2, "plan")).toBe("2 plans");
});

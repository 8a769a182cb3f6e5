// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { changeSymbol, describeChange } from "../../src/plan/plan_changes.ts";

Deno.test("changeSymbol() gives the tool's symbol of an action, none for a word of its own", () => {
  expect(changeSymbol("delete")).toBe("-");
  expect(changeSymbol("replace")).toBe("-/+");
  expect(changeSymbol("migrate")).toBeUndefined();
  expect(changeSymbol("toString")).toBeUndefined();
  expect(describeChange({ address: "a.b", action: "toString" })).toBe(
    "* a.b (toString)",
  );
});

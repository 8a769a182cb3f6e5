// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { asksReplan } from "../../src/run/run_outcomes.ts";

Deno.test("asksReplan() is an apply that exited 75 by itself", () => {
  const step = { exitCode: 75, timedOut: false, interrupted: false };
  expect(asksReplan(step)).toBe(true);
  expect(asksReplan({ ...step, exitCode: 1 })).toBe(false);
  expect(asksReplan({ ...step, exitCode: 0 })).toBe(false);
  expect(asksReplan({ ...step, timedOut: true })).toBe(false);
  expect(asksReplan({ ...step, interrupted: true })).toBe(false);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { normalJitLater } from "../../src/proc/jit_policy.ts";
import { pollUntil } from "../_helpers/poll.ts";

Deno.test("normalJitLater() gives bun its normal JIT policy back after the delay, and does nothing elsewhere", async (t) => {
  await t.step(
    "under bun: setJITPolicy(1), once the delay passed",
    async () => {
      const calls: number[] = [];
      const runtime = {
        Bun: { unsafe: { setJITPolicy: (s: number) => calls.push(s) } },
      };
      const started = performance.now();
      expect(normalJitLater(20, runtime)).toBe(true);
      expect(calls).toEqual([]);
      await pollUntil("setJITPolicy", () => calls.length > 0);
      expect(calls).toEqual([1]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(19);
    },
  );
  await t.step("without Bun.unsafe.setJITPolicy (Deno, Node): nothing", () => {
    expect(normalJitLater(0, {})).toBe(false);
    expect(normalJitLater(0, { Bun: {} })).toBe(false);
    expect(normalJitLater(0)).toBe(false);
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  exposedCollector,
  paceCollections,
} from "../../src/exec/pace_collections.ts";

Deno.test("paceCollections() collects before the first step and every n-th after it", async (t) => {
  const cases = [
    { every: 1, steps: 3, want: [0, 1, 2] },
    { every: 3, steps: 7, want: [0, 3, 6] },
    { every: 256, steps: 300, want: [0, 256] },
  ];
  for (const c of cases) {
    await t.step(`every ${c.every}, ${c.steps} steps`, () => {
      const at: number[] = [];
      let step = 0;
      const beforeStep = paceCollections(c.every, () => at.push(step));
      for (; step < c.steps; step++) beforeStep();
      expect(at).toEqual(c.want);
    });
  }
});

Deno.test("paceCollections() does nothing when turned off or without a collector", () => {
  let collections = 0;
  const off = paceCollections(0, () => collections++);
  for (let i = 0; i < 10; i++) off();
  expect(collections).toBe(0);
  const none = paceCollections(1, undefined);
  expect(() => none()).not.toThrow();
});

Deno.test("exposedCollector() is the runtime's gc() only when it exposes one", () => {
  const global = globalThis as { gc?: unknown };
  const had = global.gc;
  try {
    let calls = 0;
    global.gc = () => calls++;
    exposedCollector()!();
    expect(calls).toBe(1);
    global.gc = undefined;
    expect(exposedCollector()).toBeUndefined();
  } finally {
    global.gc = had;
  }
});

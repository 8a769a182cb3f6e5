// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  exposedCollector,
  paceCollections,
  pacedPieces,
} from "../../src/exec/pace_collections.ts";

Deno.test("paceCollections() collects every n-th step after the first, not before it", async (t) => {
  const cases = [
    { steps: 1, count: 3, want: [1, 2] },
    { steps: 3, count: 7, want: [3, 6] },
    { steps: 256, count: 300, want: [256] },
  ];
  for (const c of cases) {
    await t.step(`every ${c.steps}, ${c.count} steps`, () => {
      const at: number[] = [];
      let step = 0;
      const pacer = paceCollections({ steps: c.steps }, () => at.push(step));
      for (; step < c.count; step++) pacer.beforeStep();
      expect(at).toEqual(c.want);
    });
  }
});

Deno.test("paceCollections() collects once every so many bytes of output", () => {
  let collections = 0;
  const pacer = paceCollections({ bytes: 100 }, () => collections++);
  pacer.read(99);
  expect(collections).toBe(0);
  pacer.read(1);
  expect(collections).toBe(1);
  pacer.read(250);
  expect(collections).toBe(2);
  pacer.read(99);
  expect(collections).toBe(2);
  pacer.beforeStep();
  expect(collections).toBe(2);
});

Deno.test("paceCollections() does nothing when turned off or without a collector", () => {
  let collections = 0;
  const off = paceCollections(
    { steps: 0, bytes: 0, chars: 0, stageRuns: 0 },
    () => collections++,
  );
  for (let i = 0; i < 10; i++) {
    off.beforeStep();
    off.read(1 << 30);
    off.built(1 << 30);
    off.settle(1 << 30);
  }
  expect(collections).toBe(0);
  const none = paceCollections(
    { steps: 1, bytes: 1, chars: 1, stageRuns: 1 },
    undefined,
  );
  expect(() => {
    none.beforeStep();
    none.read(10);
    none.built(10);
    none.settle(10);
  }).not.toThrow();
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

Deno.test("paceCollections() collects once every so many characters of text built", () => {
  let collections = 0;
  const pacer = paceCollections({ chars: 10, bytes: 100 }, () => collections++);
  pacer.built(9);
  expect(collections).toBe(0);
  pacer.built(1);
  expect(collections).toBe(1);
  pacer.read(99);
  pacer.built(9);
  expect(collections).toBe(1);
  pacer.read(1);
  expect(collections).toBe(2);
  pacer.built(1);
  expect(collections).toBe(3);
});

Deno.test("pacedPieces() hands on every piece and tells the pacer of each", () => {
  let collections = 0;
  const pacer = paceCollections({ chars: 4 }, () => collections++);
  const seen: number[] = [];
  const pieces = pacedPieces(["ab", "cd", "e"], pacer);
  for (const piece of pieces) seen.push(piece.length, collections);
  // The pacer hears of a piece once it was handed on (written).
  expect(seen).toEqual([2, 0, 2, 0, 1, 1]);
  expect([...pacedPieces(["x", "y"], undefined)]).toEqual(["x", "y"]);
});

Deno.test("paceCollections() collects at the end of a stage of many runs only", () => {
  let collections = 0;
  const pacer = paceCollections({ stageRuns: 1000 }, () => collections++);
  pacer.settle(999);
  expect(collections).toBe(0);
  pacer.settle(1000);
  pacer.settle(30_000);
  expect(collections).toBe(2);
  const off = paceCollections({}, () => collections++);
  off.settle(1_000_000);
  expect(collections).toBe(2);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { TailBuffer } from "../../src/console/line_tail.ts";

Deno.test("TailBuffer keeps the last lines, oldest first", async (t) => {
  const cases = [
    { name: "empty", capacity: 3, pushed: [], want: [] },
    { name: "not full", capacity: 3, pushed: ["a", "b"], want: ["a", "b"] },
    {
      name: "exactly full",
      capacity: 3,
      pushed: ["a", "b", "c"],
      want: ["a", "b", "c"],
    },
    {
      name: "wrapped several times",
      capacity: 3,
      pushed: ["1", "2", "3", "4", "5", "6", "7"],
      want: ["5", "6", "7"],
    },
    { name: "capacity 0 keeps nothing", capacity: 0, pushed: ["a"], want: [] },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const tail = new TailBuffer(c.capacity);
      for (const line of c.pushed) tail.push(line);
      expect(tail.lines()).toEqual(c.want);
      expect(tail.size).toBe(c.want.length);
    });
  }
});

Deno.test("TailBuffer keeps 20 lines by default", () => {
  const tail = new TailBuffer();
  for (let i = 1; i <= 50; i++) tail.push(`line ${i}`);
  const lines = tail.lines();
  expect(lines.length).toBe(20);
  expect(lines[0]).toBe("line 31");
  expect(lines[19]).toBe("line 50");
});

Deno.test("TailBuffer rejects a negative capacity", () => {
  expect(() => new TailBuffer(-1)).toThrow(
    "Cannot keep a tail: capacity must be a non-negative integer, got -1",
  );
});

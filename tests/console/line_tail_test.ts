// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { LineTail, TailBuffer } from "../../src/console/line_tail.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Notes every line of `text` (split on "\n") as ranges of one buffer. */
function noteLines(tail: LineTail, text: string): void {
  const data = bytes(text);
  let start = 0;
  for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
    tail.note(data, start, end);
    start = end + 1;
  }
}

Deno.test("LineTail keeps the last lines of many batches, oldest first", async (t) => {
  const cases = [
    { name: "empty", capacity: 3, batches: [], want: [] },
    {
      name: "one short batch",
      capacity: 3,
      batches: ["a\nb\n"],
      want: ["a", "b"],
    },
    {
      name: "a batch longer than the tail",
      capacity: 3,
      batches: ["1\n2\n3\n4\n5\n"],
      want: ["3", "4", "5"],
    },
    {
      name: "lines from several batches",
      capacity: 3,
      batches: ["1\n2\n", "3\n", "", "4\n5\n"],
      want: ["3", "4", "5"],
    },
    {
      name: "capacity 0 keeps nothing",
      capacity: 0,
      batches: ["a\n"],
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const tail = new LineTail(c.capacity);
      for (const batch of c.batches) {
        noteLines(tail, batch);
        tail.settle();
      }
      expect(tail.lines()).toEqual(c.want);
    });
  }
});

Deno.test("LineTail decodes a batch only when it settles", () => {
  const tail = new LineTail(2);
  const data = bytes("old\n");
  tail.note(data, 0, 3);
  tail.settle();
  data.set(bytes("new"));
  expect(tail.lines()).toEqual(["old"]);
  tail.note(data, 0, 3);
  expect(tail.lines()).toEqual(["old", "new"]);
});

Deno.test("LineTail replaces invalid UTF-8 and keeps a BOM", () => {
  const tail = new LineTail(2);
  const data = Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62);
  tail.note(data, 0, 6);
  expect(tail.lines()).toEqual(["\uFEFFa\uFFFDb"]);
});

Deno.test("LineTail rejects a negative capacity", () => {
  expect(() => new LineTail(-1)).toThrow(
    "Cannot keep a tail: capacity must be a non-negative integer, got -1",
  );
});

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

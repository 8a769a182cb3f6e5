// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { LineSplitter } from "../../src/console/line_splitter.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `chunks` and returns every line, the flushed one last (marked). */
function split(
  chunks: readonly Uint8Array[],
  maxLineLength?: number,
): { lines: string[]; last: string | undefined } {
  const splitter = new LineSplitter({ maxLineLength });
  const lines: string[] = [];
  for (const chunk of chunks) lines.push(...splitter.push(chunk));
  return { lines, last: splitter.flush() };
}

/** Every way of cutting `data` into two chunks, plus one byte at a time. */
function chunkings(data: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [[data]];
  for (let i = 0; i <= data.length; i++) {
    out.push([data.subarray(0, i), new Uint8Array(0), data.subarray(i)]);
  }
  out.push(Array.from(data, (b) => Uint8Array.of(b)));
  return out;
}

Deno.test("LineSplitter gives the same lines however the bytes are chunked", async (t) => {
  const cases = [
    {
      name: "lines split across chunks",
      text: "alpha\nbeta\ngamma\n",
      lines: ["alpha", "beta", "gamma"],
      last: undefined,
    },
    {
      name: "\\r\\n split across chunks",
      text: "one\r\ntwo\r\n",
      lines: ["one", "two"],
      last: undefined,
    },
    {
      name: "empty lines",
      text: "\n\r\n\n",
      lines: ["", "", ""],
      last: undefined,
    },
    {
      name: "no final newline",
      text: "a\nlast",
      lines: ["a"],
      last: "last",
    },
    {
      name: "a bare \\r stays in the line",
      text: "10%\r20%\n",
      lines: ["10%\r20%"],
      last: undefined,
    },
    {
      name: "multi-byte characters split across chunks",
      text: "é€😀\nñ\n",
      lines: ["é€😀", "ñ"],
      last: undefined,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      for (const chunks of chunkings(bytes(c.text))) {
        expect(split(chunks)).toEqual({ lines: c.lines, last: c.last });
      }
    });
  }
});

Deno.test("LineSplitter treats empty chunks as nothing", () => {
  const splitter = new LineSplitter();
  expect(splitter.push(new Uint8Array(0))).toEqual([]);
  expect(splitter.push(bytes("x\n"))).toEqual(["x"]);
  expect(splitter.push(new Uint8Array(0))).toEqual([]);
  expect(splitter.flush()).toBeUndefined();
});

Deno.test("LineSplitter replaces invalid UTF-8 with U+FFFD and never throws", async (t) => {
  await t.step("invalid bytes inside a line", () => {
    const data = Uint8Array.of(0x61, 0xff, 0xfe, 0x62, 0x0a);
    for (const chunks of chunkings(data)) {
      expect(split(chunks)).toEqual({
        lines: ["a\uFFFD\uFFFDb"],
        last: undefined,
      });
    }
  });
  await t.step("a truncated character at the end of the stream", () => {
    const euro = bytes("€"); // e2 82 ac
    expect(split([bytes("x\n"), euro.subarray(0, 2)])).toEqual({
      lines: ["x"],
      last: "\uFFFD",
    });
  });
  await t.step("a truncated character before a newline", () => {
    const data = Uint8Array.of(0xe2, 0x82, 0x0a, 0x61, 0x0a);
    for (const chunks of chunkings(data)) {
      expect(split(chunks).lines).toEqual(["\uFFFD", "a"]);
    }
  });
});

Deno.test("LineSplitter emits a very long line in pieces of at most the bound", async (t) => {
  await t.step("one chunk", () => {
    const line = "x".repeat(25);
    expect(split([bytes(line + "\nend\n")], 10).lines).toEqual([
      "x".repeat(10),
      "x".repeat(10),
      "x".repeat(5),
      "end",
    ]);
  });
  await t.step("many chunks give the same pieces", () => {
    const data = bytes("x".repeat(25) + "\nend\n");
    for (const chunks of chunkings(data)) {
      expect(split(chunks, 10).lines).toEqual([
        "x".repeat(10),
        "x".repeat(10),
        "x".repeat(5),
        "end",
      ]);
    }
  });
  await t.step("a line of exactly twice the bound gives no empty piece", () => {
    for (const chunks of chunkings(bytes("y".repeat(20) + "\n"))) {
      expect(split(chunks, 10).lines).toEqual(["y".repeat(10), "y".repeat(10)]);
    }
  });
  await t.step("a surrogate pair is never cut", () => {
    const { lines } = split([bytes("abcdefghi😀z\n")], 10);
    expect(lines).toEqual(["abcdefghi", "😀z"]);
  });
  await t.step("memory stays bounded on an endless line", () => {
    const splitter = new LineSplitter({ maxLineLength: 1024 });
    const chunk = bytes("z".repeat(4096));
    let emitted = 0;
    for (let i = 0; i < 1000; i++) {
      for (const piece of splitter.push(chunk)) {
        expect(piece.length).toBeLessThanOrEqual(1024);
        emitted += piece.length;
      }
    }
    const last = splitter.flush() ?? "";
    expect(last.length).toBeLessThanOrEqual(1024);
    expect(emitted + last.length).toBe(4096 * 1000);
  });
  await t.step("the default bound is 64 KiB", () => {
    const { lines } = split([bytes("a".repeat(65536 + 1) + "\n")]);
    expect(lines.map((l) => l.length)).toEqual([65536, 1]);
  });
});

Deno.test("LineSplitter rejects a bound below 2", () => {
  expect(() => new LineSplitter({ maxLineLength: 1 })).toThrow(
    "Cannot split lines: maxLineLength must be an integer of at least 2, got 1",
  );
});

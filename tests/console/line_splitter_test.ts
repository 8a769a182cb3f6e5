// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  type LineSink,
  LineSplitter,
} from "../../src/console/line_splitter.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** One emitted line: its text (decoded) and its plain mark. */
interface Line {
  text: string;
  plain: boolean;
}

/** Feeds `chunks`, then flushes; returns every line, the flushed one included. */
function splitLines(
  chunks: readonly Uint8Array[],
  maxLineBytes?: number,
): Line[] {
  const splitter = new LineSplitter({ maxLineBytes });
  const lines: Line[] = [];
  const sink: LineSink = (data, start, end, plain) => {
    expect(start).toBeLessThanOrEqual(end);
    lines.push({ text: decoder.decode(data.subarray(start, end)), plain });
  };
  for (const chunk of chunks) splitter.push(chunk, sink);
  splitter.flush(sink);
  return lines;
}

/** The texts only. */
function split(chunks: readonly Uint8Array[], maxLineBytes?: number): string[] {
  return splitLines(chunks, maxLineBytes).map((line) => line.text);
}

/** Every way of cutting `data` into two chunks (with an empty one), plus one byte at a time. */
function chunkings(data: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [[data]];
  for (let i = 0; i <= data.length; i++) {
    out.push([data.subarray(0, i), new Uint8Array(0), data.subarray(i)]);
  }
  out.push(Array.from(data, (b) => Uint8Array.of(b)));
  return out;
}

/** Is every byte printable ASCII or a tab? (The slow, obvious check.) */
function isPlain(line: Uint8Array): boolean {
  return line.every((b) => b === 9 || (b >= 0x20 && b <= 0x7e));
}

Deno.test("LineSplitter gives the same lines however the bytes are chunked", async (t) => {
  const cases = [
    {
      name: "lines split across chunks",
      text: "alpha\nbeta\ngamma\n",
      lines: ["alpha", "beta", "gamma"],
    },
    {
      name: "\\r\\n split across chunks",
      text: "one\r\ntwo\r\n",
      lines: ["one", "two"],
    },
    { name: "empty lines", text: "\n\r\n\n", lines: ["", "", ""] },
    { name: "no final newline", text: "a\nlast", lines: ["a", "last"] },
    {
      name: "a final \\r stays in the last line",
      text: "a\nlast\r",
      lines: ["a", "last\r"],
    },
    {
      name: "a bare \\r stays in the line",
      text: "10%\r20%\n",
      lines: ["10%\r20%"],
    },
    {
      name: "\\r\\r\\n keeps one \\r",
      text: "x\r\r\ny\n",
      lines: ["x\r", "y"],
    },
    {
      name: "multi-byte characters split across chunks",
      text: "é€😀\nñ\n",
      lines: ["é€😀", "ñ"],
    },
    {
      name: "control characters split across chunks",
      text: "\x1b[31mred\x1b[0m\n\0\x07\x7f\n",
      lines: ["\x1b[31mred\x1b[0m", "\0\x07\x7f"],
    },
    { name: "tabs", text: "a\tb\n\t\n", lines: ["a\tb", "\t"] },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      for (const chunks of chunkings(bytes(c.text))) {
        expect(split(chunks)).toEqual(c.lines);
      }
    });
  }
});

Deno.test("LineSplitter marks a line plain only when it is printable ASCII or tabs", async (t) => {
  await t.step("whole chunks", () => {
    expect(
      splitLines([bytes("plain text\twith tab\r\nesc \x1b!\nnon-ascii é\n")]),
    ).toEqual([
      { text: "plain text\twith tab", plain: true },
      { text: "esc \x1b!", plain: false },
      { text: "non-ascii é", plain: false },
    ]);
  });
  await t.step("a bare \\r, DEL and C1 controls are not plain", () => {
    const lines = splitLines([bytes("a\rb\nx\x7f\n\u0085\nok~ \n")]);
    expect(lines.map((l) => l.plain)).toEqual([false, false, false, true]);
  });
  await t.step("never plain for a line that is not, however chunked", () => {
    const text = "abcd\x1befgh\nijk\u200elmn\nopq\rs\ntuv\n";
    for (const chunks of chunkings(bytes(text))) {
      const lines = splitLines(chunks);
      expect(lines.map((l) => l.text)).toEqual([
        "abcd\x1befgh",
        "ijk\u200elmn",
        "opq\rs",
        "tuv",
      ]);
      expect(lines.slice(0, 3).every((l) => !l.plain)).toBe(true);
    }
  });
  await t.step("plain lines stay plain when chunked on line ends", () => {
    const lines = splitLines([bytes("one\ntw"), bytes("o\nthree\n")]);
    expect(lines.every((l) => l.plain)).toBe(true);
  });
  await t.step("random bytes agree with the obvious check", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
    const alphabet = [
      0x41,
      0x20,
      0x7e,
      0x09,
      0x0a,
      0x0d,
      0x1b,
      0x7f,
      0x00,
      0xc3,
      0xa9,
      0xff,
      0x1f,
    ];
    for (let round = 0; round < 200; round++) {
      const data = Uint8Array.from(
        { length: 1 + (random() % 97) },
        () => alphabet[random() % alphabet.length],
      );
      const splitter = new LineSplitter({ maxLineBytes: 1024 });
      const sink: LineSink = (bytes, start, end, plain) => {
        if (plain) expect(isPlain(bytes.subarray(start, end))).toBe(true);
      };
      let at = 0;
      while (at < data.length) {
        const size = random() % 9;
        splitter.push(data.subarray(at, at + size), sink);
        at += size;
      }
      splitter.flush(sink);
    }
  });
});

Deno.test("LineSplitter gives the same pieces for random bytes however chunked", () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
  const alphabet = bytes("ab\r\n\t\x1bé€😀");
  const lines = (chunks: Uint8Array[]) => {
    const splitter = new LineSplitter({ maxLineBytes: 9 });
    const out: string[] = [];
    const sink: LineSink = (data, start, end) =>
      out.push(Array.from(data.subarray(start, end)).join(","));
    for (const chunk of chunks) splitter.push(chunk, sink);
    splitter.flush(sink);
    return out;
  };
  for (let round = 0; round < 300; round++) {
    const data = Uint8Array.from(
      { length: random() % 120 },
      () => alphabet[random() % alphabet.length],
    );
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < data.length;) {
      const size = random() % 14;
      chunks.push(data.subarray(at, at + size));
      at += size;
    }
    const whole = lines([data]);
    expect(lines(chunks)).toEqual(whole);
    for (const line of whole) {
      expect(line.split(",").length).toBeLessThanOrEqual(9);
    }
  }
});

Deno.test("LineSplitter treats empty chunks as nothing", () => {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const sink: LineSink = (data, start, end) =>
    lines.push(decoder.decode(data.subarray(start, end)));
  splitter.push(new Uint8Array(0), sink);
  expect(lines).toEqual([]);
  splitter.push(bytes("x\n"), sink);
  splitter.push(new Uint8Array(0), sink);
  splitter.flush(sink);
  expect(lines).toEqual(["x"]);
});

Deno.test("LineSplitter passes invalid UTF-8 through as bytes and never throws", async (t) => {
  await t.step("invalid bytes inside a line", () => {
    const data = Uint8Array.of(0x61, 0xff, 0xfe, 0x62, 0x0a);
    for (const chunks of chunkings(data)) {
      expect(splitLines(chunks)).toEqual([
        { text: "a\uFFFD\uFFFDb", plain: false },
      ]);
    }
  });
  await t.step("a truncated character at the end of the stream", () => {
    const euro = bytes("€"); // e2 82 ac
    expect(split([bytes("x\n"), euro.subarray(0, 2)])).toEqual([
      "x",
      "\uFFFD",
    ]);
  });
  await t.step("a truncated character before a newline", () => {
    const data = Uint8Array.of(0xe2, 0x82, 0x0a, 0x61, 0x0a);
    for (const chunks of chunkings(data)) {
      expect(split(chunks)).toEqual(["\uFFFD", "a"]);
    }
  });
});

Deno.test("LineSplitter emits a very long line in pieces of at most the bound", async (t) => {
  await t.step("one chunk", () => {
    const line = "x".repeat(25);
    expect(split([bytes(line + "\nend\n")], 10)).toEqual([
      "x".repeat(10),
      "x".repeat(10),
      "x".repeat(5),
      "end",
    ]);
  });
  await t.step("many chunks give the same pieces", () => {
    const data = bytes("x".repeat(25) + "\nend\n");
    for (const chunks of chunkings(data)) {
      expect(split(chunks, 10)).toEqual([
        "x".repeat(10),
        "x".repeat(10),
        "x".repeat(5),
        "end",
      ]);
    }
  });
  await t.step("a line of exactly twice the bound gives no empty piece", () => {
    for (const chunks of chunkings(bytes("y".repeat(20) + "\n"))) {
      expect(split(chunks, 10)).toEqual(["y".repeat(10), "y".repeat(10)]);
    }
  });
  await t.step("a line of exactly the bound with \\r\\n is one line", () => {
    for (const chunks of chunkings(bytes("y".repeat(10) + "\r\nz\n"))) {
      expect(split(chunks, 10)).toEqual(["y".repeat(10), "z"]);
    }
  });
  await t.step("a multi-byte character is never cut", () => {
    for (const chunks of chunkings(bytes("abcdefghi😀z\nabcdefgé€x\n"))) {
      expect(split(chunks, 10)).toEqual(["abcdefghi", "😀z", "abcdefgé", "€x"]);
    }
  });
  await t.step("a piece never ends right after a \\r", () => {
    for (const chunks of chunkings(bytes("abcdefghi\rjklm\n"))) {
      expect(split(chunks, 10)).toEqual(["abcdefghi", "\rjklm"]);
    }
  });
  await t.step("memory stays bounded on an endless line", () => {
    const splitter = new LineSplitter({ maxLineBytes: 1024 });
    const chunk = bytes("z".repeat(4096));
    let emitted = 0;
    const sink: LineSink = (_data, start, end) => {
      expect(end - start).toBeLessThanOrEqual(1024);
      emitted += end - start;
    };
    for (let i = 0; i < 1000; i++) splitter.push(chunk, sink);
    splitter.flush(sink);
    expect(emitted).toBe(4096 * 1000);
  });
  await t.step("the default bound is 64 KiB", () => {
    const lines = split([bytes("a".repeat(65536 + 1) + "\n")]);
    expect(lines.map((l) => l.length)).toEqual([65536, 1]);
  });
});

Deno.test("LineSplitter can be reused after flush", () => {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const sink: LineSink = (data, start, end) =>
    lines.push(decoder.decode(data.subarray(start, end)));
  splitter.push(bytes("a\nrest"), sink);
  splitter.flush(sink);
  splitter.push(bytes("b\n"), sink);
  splitter.flush(sink);
  expect(lines).toEqual(["a", "rest", "b"]);
});

Deno.test("LineSplitter rejects a bound below 8", () => {
  expect(() => new LineSplitter({ maxLineBytes: 7 })).toThrow(
    "Cannot split lines: maxLineBytes must be an integer of at least 8, got 7",
  );
});

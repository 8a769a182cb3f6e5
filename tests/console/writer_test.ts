// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import {
  fdWriter,
  isTerminal,
  LINE_CHARS,
  memoryWriter,
  pacedWriter,
  reopenBlocking,
  type Writer,
} from "../../src/console/writer.ts";

Deno.test("fdWriter() writes text and bytes to its descriptor, in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-writer-" });
  try {
    const path = `${dir}/out`;
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT);
    try {
      const out = fdWriter(fd);
      expect(out.isTerminal).toBe(false);
      out.write("é€😀\n");
      out.writeBytes!(new TextEncoder().encode("bytes\n"));
      // Past the first buffer: the writer grows it.
      out.write("x".repeat(10_000) + "\n");
    } finally {
      closeSync(fd);
    }
    expect(await Deno.readTextFile(path)).toBe(
      "é€😀\nbytes\n" + "x".repeat(10_000) + "\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isTerminal() says a terminal from a pipe, a file, /dev/null and a closed descriptor", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-tty-" });
  const opened: number[] = [];
  try {
    await Deno.writeTextFile(`${dir}/file`, "");
    const pty = openSync("/dev/ptmx", constants.O_RDWR | constants.O_NOCTTY);
    opened.push(pty);
    const file = openSync(`${dir}/file`, constants.O_WRONLY);
    opened.push(file);
    const devNull = openSync("/dev/null", constants.O_WRONLY);
    opened.push(devNull);
    const fifo = `${dir}/fifo`;
    expect(
      (await new Deno.Command("mkfifo", { args: [fifo] }).output()).success,
    )
      .toBe(true);
    const pipe = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    opened.push(pipe);
    expect(isTerminal(pty)).toBe(true);
    expect(fdWriter(pty).isTerminal).toBe(true);
    expect([file, devNull, pipe].map(isTerminal)).toEqual([
      false,
      false,
      false,
    ]);
    const closed = openSync("/dev/null", constants.O_WRONLY);
    closeSync(closed);
    expect(isTerminal(closed)).toBe(false);
  } finally {
    opened.forEach((fd) => closeSync(fd));
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("memoryWriter() keeps text and bytes in order", () => {
  const out = memoryWriter();
  out.write("a\n");
  out.writeBytes!(new TextEncoder().encode("é\nb"));
  expect(out.text()).toBe("a\né\nb");
  expect(out.lines()).toEqual(["a", "é", "b"]);
});

Deno.test("reopenBlocking() opens the same pipe again, and nothing else", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "chant-wave-reopen-" });
  try {
    await t.step("a FIFO: a second descriptor of the same pipe", async () => {
      const fifo = `${dir}/fifo`;
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      expect(made.success).toBe(true);
      // Read-write, so that opening it waits for no one.
      const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
      try {
        const again = reopenBlocking(fd);
        expect(again).toBeDefined();
        expect(again).not.toBe(fd);
        expect(fstatSync(again!).ino).toBe(fstatSync(fd).ino);
        writeSync(again!, new TextEncoder().encode("through the twin"));
        closeSync(again!);
        const buffer = new Uint8Array(64);
        const read = readSync(fd, buffer, 0, buffer.length, null);
        expect(new TextDecoder().decode(buffer.subarray(0, read))).toBe(
          "through the twin",
        );
      } finally {
        closeSync(fd);
      }
    });
    await t.step("a regular file or /dev/null: none", async () => {
      await Deno.writeTextFile(`${dir}/file`, "");
      for (const path of [`${dir}/file`, "/dev/null"]) {
        const fd = openSync(path, constants.O_WRONLY);
        try {
          expect(reopenBlocking(fd)).toBeUndefined();
        } finally {
          closeSync(fd);
        }
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pacedWriter() writes what it is given and counts the text and its lines", () => {
  const inner = memoryWriter();
  let chars = 0;
  const writer = pacedWriter(inner, (n) => chars += n);
  writer.write("one\n");
  writer.writeBytes!(new TextEncoder().encode("two\n"));
  writer.write("three\n");
  expect(inner.lines()).toEqual(["one", "two", "three"]);
  // The bytes are a step's output: the spawner counts those.
  expect(chars).toBe(10 + 2 * LINE_CHARS);
});

Deno.test("pacedWriter() keeps the writer's terminal flag and its lack of writeBytes", () => {
  const texts: string[] = [];
  const plain: Writer = { write: (text) => texts.push(text), isTerminal: true };
  const writer = pacedWriter(plain, () => {});
  expect(writer.isTerminal).toBe(true);
  expect(writer.writeBytes).toBeUndefined();
  writer.write("x");
  expect(texts).toEqual(["x"]);
});

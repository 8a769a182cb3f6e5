// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  LINE_CHARS,
  memoryWriter,
  pacedWriter,
  type Writer,
} from "../../src/console/writer.ts";

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

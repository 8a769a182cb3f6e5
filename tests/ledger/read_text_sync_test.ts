// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { textFileReader } from "../../src/ledger/_read_text_sync.ts";

Deno.test("textFileReader() reads whole files, growing its buffer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const small = `${dir}/small.json`;
    const large = `${dir}/large.json`;
    const empty = `${dir}/empty.json`;
    await Deno.writeTextFile(small, '{"a":"é"}');
    await Deno.writeTextFile(large, "x".repeat(100) + "ü".repeat(50));
    await Deno.writeTextFile(empty, "");
    const read = textFileReader(16);
    expect(read(small)).toBe('{"a":"é"}');
    expect(read(large)).toBe("x".repeat(100) + "ü".repeat(50));
    expect(read(empty)).toBe("");
    expect(read(small)).toBe('{"a":"é"}');
    expect(() => read(`${dir}/missing.json`)).toThrow();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { writeFileAtomic } from "../../src/fs/write_file_atomic.ts";

Deno.test("writeFileAtomic() writes a text given in pieces, large and small", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sub/record.json`;
    const pieces = [
      "{",
      "é".repeat(100_000),
      "\u{1F600}",
      "",
      "x".repeat(70_000),
      "}\n",
    ];
    await writeFileAtomic(path, pieces.values());
    expect(await Deno.readTextFile(path)).toBe(pieces.join(""));
    await writeFileAtomic(path, "whole\n");
    expect(await Deno.readTextFile(path)).toBe("whole\n");
    expect([...Deno.readDirSync(`${dir}/sub`)].map((e) => e.name)).toEqual([
      "record.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

function* failing(): Generator<string> {
  yield "new";
  throw new Error("cannot build the text");
}

Deno.test("writeFileAtomic() leaves the old file and no temporary file when the pieces fail", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/record.json`;
    await Deno.writeTextFile(path, "old\n");
    await expect(writeFileAtomic(path, failing())).rejects.toThrow(
      "cannot build the text",
    );
    expect(await Deno.readTextFile(path)).toBe("old\n");
    expect([...Deno.readDirSync(dir)].map((e) => e.name)).toEqual([
      "record.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

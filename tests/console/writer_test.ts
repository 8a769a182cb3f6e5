// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { closeSync, constants, openSync } from "node:fs";
import { fdWriter, memoryWriter } from "../../src/console/writer.ts";

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

Deno.test("memoryWriter() keeps text and bytes in order", () => {
  const out = memoryWriter();
  out.write("a\n");
  out.writeBytes!(new TextEncoder().encode("é\nb"));
  expect(out.text()).toBe("a\né\nb");
  expect(out.lines()).toEqual(["a", "é", "b"]);
});

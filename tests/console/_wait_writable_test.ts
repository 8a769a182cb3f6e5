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
import { reopenBlocking } from "../../src/console/writer.ts";

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

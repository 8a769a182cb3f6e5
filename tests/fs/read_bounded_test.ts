// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  BoundedReadError,
  readBounded,
  readBoundedSync,
} from "../../src/fs/read_bounded.ts";
import { tempDir } from "../_helpers/binary.ts";

const readers = [
  [
    "readBoundedSync",
    (p: string, o: { maxBytes: number; followLinks?: boolean }) =>
      Promise.resolve().then(() => readBoundedSync(p, o)),
  ],
  ["readBounded", readBounded],
] as const;

for (const [name, read] of readers) {
  Deno.test(`${name}() reads only regular files within a bound`, async (t) => {
    await using dir = await tempDir({
      "small.json": "{}",
      "big.json": "x".repeat(100),
    });
    const p = (file: string) => `${dir.path}/${file}`;
    await Deno.symlink(p("small.json"), p("link.json"));
    await Deno.symlink("/dev/zero", p("zero.json"));
    await new Deno.Command("mkfifo", { args: [p("fifo.json")] }).output();
    const refused = async (file: string, reason: string, follow = false) => {
      const error = await read(p(file), { maxBytes: 64, followLinks: follow })
        .then(() => undefined, (e) => e);
      expect(error).toBeInstanceOf(BoundedReadError);
      expect((error as BoundedReadError).reason).toBe(reason);
    };
    await t.step("a small regular file", async () => {
      expect(await read(p("small.json"), { maxBytes: 64 })).toBe("{}");
    });
    await t.step(
      "a file over the bound",
      () => refused("big.json", "too-large"),
    );
    await t.step(
      "a symbolic link is not followed",
      () => refused("link.json", "symlink"),
    );
    await t.step("unless links are allowed", async () => {
      expect(await read(p("link.json"), { maxBytes: 64, followLinks: true }))
        .toBe("{}");
    });
    await t.step(
      "a link to /dev/zero, followed, is not a regular file",
      () => refused("zero.json", "not-a-file", true),
    );
    await t.step(
      "a FIFO neither blocks nor counts",
      () => refused("fifo.json", "not-a-file"),
    );
    await t.step("a directory", () => refused(".", "not-a-file"));
    await t.step("a large file is read whole", async () => {
      const text = "0123456789abcdef".repeat(20_000) + "é";
      await Deno.writeTextFile(p("large.json"), text);
      expect(await read(p("large.json"), { maxBytes: 1024 * 1024 })).toBe(
        text,
      );
      const error = await read(p("large.json"), { maxBytes: 300_000 }).then(
        () => undefined,
        (e) => e,
      );
      expect((error as BoundedReadError).reason).toBe("too-large");
    });
    await t.step("a file whose size says 0 is read whole", async () => {
      const text = await read("/proc/self/status", { maxBytes: 1024 * 1024 });
      expect(text).toMatch(/^Name:/);
      expect(text).toMatch(/\nPid:\s+\d+\n/);
    });
    await t.step("and refused past the bound", async () => {
      const error = await read("/proc/self/status", { maxBytes: 64 }).then(
        () => undefined,
        (e) => e,
      );
      expect((error as BoundedReadError).reason).toBe("too-large");
    });
    await t.step("a missing file is ENOENT", async () => {
      const error = await read(p("none.json"), { maxBytes: 64 }).then(
        () => undefined,
        (e) => e,
      );
      expect((error as { code?: string }).code).toBe("ENOENT");
    });
  });
}

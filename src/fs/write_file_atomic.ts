/**
 * Atomic file replacement: write the whole text to a temporary file beside the
 * target, flush it, then rename it over the target, so a reader sees the old file
 * or the new one and never half of either.
 * @module
 */

import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { basename, dirname, join } from "@std/path";

/**
 * Writes `text` to `path` atomically, creating the directory first.
 * @param path The file to write (replaced if it exists).
 * @param text Its new content.
 * @throws {Error} When the file cannot be written; then `path` is unchanged and no
 *   temporary file is left behind.
 */
export async function writeFileAtomic(
  path: string,
  text: string,
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(
    dir,
    `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

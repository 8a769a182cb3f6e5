/**
 * Atomic file replacement: write the whole text to a temporary file beside the
 * target, flush it, then rename it over the target, so a reader sees the old file
 * or the new one and never half of either.
 * @module
 */

import { type FileHandle, mkdir, open, rename, rm } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { basename, dirname, join } from "@std/path";

/**
 * Writes `text` to `path` atomically, creating the directory first.
 * @param path The file to write (replaced if it exists).
 * @param text Its new content, whole or in pieces (each encoded on its own, so
 *   none may end inside a surrogate pair): a large file is then written
 *   without its whole text and encoding held at once.
 * @throws {Error} When the file cannot be written; then `path` is unchanged and no
 *   temporary file is left behind.
 */
export async function writeFileAtomic(
  path: string,
  text: string | Iterable<string>,
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(
    dir,
    `.${basename(path)}.${
      crypto.randomUUID().replaceAll("-", "").slice(0, 12)
    }.tmp`,
  );
  try {
    const handle = await open(temp, "wx");
    try {
      if (typeof text === "string") await handle.writeFile(text, "utf8");
      else await writePieces(handle, text);
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

const encoder = new TextEncoder();

/**
 * Appends the pieces at the handle's position through one buffer (one
 * encoding per piece would leave as many buffers behind).
 */
async function writePieces(
  handle: FileHandle,
  pieces: Iterable<string>,
): Promise<void> {
  let buffer = new Uint8Array(0);
  for (const piece of pieces) {
    // UTF-16 to UTF-8 takes at most 3 bytes per code unit.
    if (piece.length * 3 > buffer.length) {
      buffer = new Uint8Array(Math.max(piece.length * 3, 64 * 1024));
    }
    const { written } = encoder.encodeInto(piece, buffer);
    for (let offset = 0; offset < written;) {
      const { bytesWritten } = await handle.write(
        buffer,
        offset,
        written - offset,
      );
      offset += bytesWritten;
    }
  }
}

/**
 * A fast synchronous reader of many small text files: open, read into one reused
 * buffer, close. For thousands of record files this is cheaper than `readFileSync`
 * (no `fstat`, no buffer per file) and far cheaper than `fs/promises`.
 * @module
 */

import { closeSync, openSync, readSync } from "node:fs";

/**
 * Makes a reader that keeps one growing scratch buffer across calls.
 * @param initialSize The scratch buffer's first size, in bytes.
 * @returns A function reading a whole file as UTF-8 (invalid bytes replaced).
 * @throws {Error} From the returned function, when the file cannot be opened or read.
 */
export function textFileReader(
  initialSize = 64 * 1024,
): (path: string) => string {
  let buffer = new Uint8Array(initialSize);
  const decoder = new TextDecoder();
  return (path) => {
    const fd = openSync(path, "r");
    try {
      let length = 0;
      for (;;) {
        if (length === buffer.length) {
          const bigger = new Uint8Array(buffer.length * 2);
          bigger.set(buffer);
          buffer = bigger;
        }
        const read = readSync(fd, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
      }
      return decoder.decode(buffer.subarray(0, length));
    } finally {
      closeSync(fd);
    }
  };
}

/**
 * A writer that tells the collection pacer how much text went through it
 * (`pace_collections.ts`): the log lines of a large wave, built between its
 * steps, are then collected as they are written. It changes nothing written.
 * @module
 */

import type { Writer } from "./writer.ts";

/**
 * What building one log line costs beyond its characters, in characters: the
 * segments, masks and joins that made it. Under bun a line of the log leaves
 * about 330 bytes behind for 85 characters (60,000 lines: 19 MB).
 */
export const LINE_CHARS = 256;

/**
 * Wraps `writer`: each `write` is passed on, then its length and
 * {@linkcode LINE_CHARS} told to `built`; bytes (`writeBytes`, the steps'
 * output, which the spawner counts already) are passed on only.
 * @param writer The writer.
 * @param built Told the characters of each text written.
 * @returns The wrapping writer.
 * @example
 * ```ts
 * let chars = 0;
 * const log = pacedWriter(memoryWriter(), (n) => chars += n);
 * log.write("two\n");
 * chars; // 4 + LINE_CHARS
 * ```
 */
export function pacedWriter(
  writer: Writer,
  built: (chars: number) => void,
): Writer {
  const paced: Writer = {
    isTerminal: writer.isTerminal,
    write(text) {
      writer.write(text);
      built(text.length + LINE_CHARS);
    },
  };
  const bytes = writer.writeBytes?.bind(writer);
  return bytes ? { ...paced, writeBytes: bytes } : paced;
}

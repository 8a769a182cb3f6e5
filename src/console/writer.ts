/**
 * The output seam: a `Writer` takes text (or UTF-8 bytes) and writes it
 * somewhere, synchronously, so memory stays bounded however much a step prints.
 * `fdWriter` writes to a file descriptor (stderr by default); `memoryWriter`
 * keeps the text for tests.
 * @module
 */

import { writeSync } from "node:fs";
import { isatty } from "node:tty";
import { backoff, reopenBlocking } from "./_wait_writable.ts";

/** Something text can be written to. Writes are synchronous and complete. */
export interface Writer {
  /** Writes `text` fully before returning. */
  write(text: string): void;
  /**
   * Writes UTF-8 `bytes` fully before returning, without a copy where it can.
   * A writer without it gets the bytes decoded, through `write`.
   */
  writeBytes?(bytes: Uint8Array): void;
  /** Whether it writes to a terminal (absent: it does not); colour needs one. */
  readonly isTerminal?: boolean;
}

const encoder = new TextEncoder();

/**
 * A writer for a file descriptor, using blocking `writeSync`, so nothing piles
 * up in memory. When the descriptor is non-blocking and full (`EAGAIN`: a pipe
 * whose reader is slow), it waits for room instead of trying again at once: it
 * writes from then on through a blocking descriptor of the same pipe or
 * terminal where Linux gives one, else it sleeps between tries (0.05 ms, then
 * doubling up to 10 ms). A write a signal interrupts (`EINTR`) is tried again.
 * Text is encoded into one reused buffer that grows to
 * the largest write seen; bytes are written as they are. It tells whether the
 * descriptor is a terminal, once, when it is made.
 * @param fd The descriptor: 1 for stdout, 2 for stderr.
 * @returns The writer.
 */
export function fdWriter(fd: number): Writer {
  let buffer = new Uint8Array(4 * 1024);
  let target = fd;
  let reopened = false;
  const wait = backoff();
  /** Writes `bytes[0..length)`, retrying partial writes, `EINTR` and `EAGAIN`. */
  const writeFully = (bytes: Uint8Array, length: number) => {
    let offset = 0;
    while (offset < length) {
      try {
        offset += writeSync(target, bytes, offset, length - offset);
        wait.reset();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "EINTR") continue;
        if (code !== "EAGAIN") throw error;
        if (!reopened) {
          reopened = true;
          target = reopenBlocking(fd) ?? fd;
        }
        if (target === fd) wait.pause();
      }
    }
  };
  return {
    isTerminal: isatty(fd),
    write(text: string): void {
      // UTF-16 to UTF-8 takes at most 3 bytes per code unit.
      if (text.length * 3 > buffer.length) {
        buffer = new Uint8Array(text.length * 3);
      }
      const { written } = encoder.encodeInto(text, buffer);
      writeFully(buffer, written);
    },
    writeBytes(bytes: Uint8Array): void {
      writeFully(bytes, bytes.length);
    },
  };
}

/** A writer that keeps everything written, for tests. */
export interface MemoryWriter extends Writer {
  /** All text written so far. */
  text(): string;
  /** The text written so far, split into lines (without a trailing empty one). */
  lines(): string[];
}

/**
 * Creates a writer that keeps what it is given in memory.
 * @returns The writer.
 * @example
 * ```ts
 * const out = memoryWriter();
 * out.write("a\nb\n");
 * out.lines(); // ["a", "b"]
 * ```
 */
export function memoryWriter(): MemoryWriter {
  const chunks: string[] = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  return {
    write(text: string): void {
      chunks.push(text);
    },
    writeBytes(bytes: Uint8Array): void {
      chunks.push(decoder.decode(bytes));
    },
    text(): string {
      return chunks.join("");
    },
    lines(): string[] {
      const all = chunks.join("");
      if (all === "") return [];
      return all.replace(/\n$/, "").split("\n");
    },
  };
}

/**
 * The output seam: a `Writer` takes text (or UTF-8 bytes) and writes it
 * somewhere, synchronously, so memory stays bounded however much a step prints.
 * `fdWriter` writes to a file descriptor (stderr by default); `memoryWriter`
 * keeps the text for tests.
 * A full non-blocking descriptor (`EAGAIN`) is waited for, not retried at
 * once: a pipe or terminal on Linux is opened again through `/proc/self/fd`
 * (a blocking description of its own), elsewhere the writer sleeps a little
 * longer each time. `pacedWriter` tells the collection pacer how much text
 * went through it.
 * @module
 */

import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  statSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";

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
    isTerminal: isTerminal(fd),
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

/** The shortest and longest sleep between two tries, in milliseconds. */
/**
 * Whether a descriptor is a terminal. Only a character device other than
 * `/dev/null` can be one, and only for such a device is `node:tty` loaded
 * (under bun, loading it is a millisecond and more of every command's
 * start): never for a pipe, a file or `/dev/null`, where CI jobs write.
 * @param fd The descriptor.
 * @returns `true` for a terminal; `false` for anything else or a closed descriptor.
 */
export function isTerminal(fd: number): boolean {
  let device;
  try {
    device = fstatSync(fd);
  } catch {
    return false;
  }
  if (!device.isCharacterDevice()) return false;
  try {
    if (statSync("/dev/null").rdev === device.rdev) return false;
  } catch {
    // No /dev/null to compare with: ask node:tty.
  }
  const tty = createRequire(import.meta.url)("node:tty") as {
    isatty(fd: number): boolean;
  };
  return tty.isatty(fd);
}

const FIRST_PAUSE_MS = 0.05;
const LAST_PAUSE_MS = 10;

/**
 * Opens a blocking descriptor of the same pipe or terminal as `fd`, on Linux,
 * so that writes to it wait in the kernel for the reader. The caller owns it.
 * Opening the write end of a pipe whose reader has gone would wait for a new
 * reader; a descriptor that just refused a write with `EAGAIN` still had one.
 * @param fd A descriptor that refused a write with `EAGAIN`.
 * @returns The new descriptor, or `undefined` when there is none to be had (a
 * socket, a file, no `/proc`).
 */
export function reopenBlocking(fd: number): number | undefined {
  try {
    if (!fstatSync(fd).isFIFO() && !isTerminal(fd)) return undefined;
    const reopened = openSync(
      `/proc/self/fd/${fd}`,
      constants.O_WRONLY | constants.O_NOCTTY,
    );
    const [was, is] = [fstatSync(fd), fstatSync(reopened)];
    if (was.dev !== is.dev || was.ino !== is.ino) {
      closeSync(reopened);
      return undefined;
    }
    return reopened;
  } catch {
    return undefined;
  }
}

/** Sleeps between the tries of a write that found its descriptor full. */
export interface Backoff {
  /** Sleeps (blocking the thread), longer after each call, up to 10 ms. */
  pause(): void;
  /** Starts again from the shortest sleep (after a write got through). */
  reset(): void;
}

/**
 * Makes a backoff whose sleeps go from 0.05 ms to 10 ms, doubling.
 * @returns The backoff.
 */
export function backoff(): Backoff {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let pauseMs = FIRST_PAUSE_MS;
  return {
    pause(): void {
      Atomics.wait(cell, 0, 0, pauseMs);
      pauseMs = Math.min(pauseMs * 2, LAST_PAUSE_MS);
    },
    reset(): void {
      pauseMs = FIRST_PAUSE_MS;
    },
  };
}

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

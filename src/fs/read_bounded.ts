/**
 * Reads files that crossed a trust boundary (SPEC.md §14): plan files, ledger
 * records, decision records, spec files. Only a regular file is read, opened
 * without blocking (a FIFO cannot hang the reader) and, unless links are allowed,
 * without following a symbolic link; at most a bound of bytes is read, so
 * `/dev/zero` or a huge file cannot exhaust memory. It knows nothing of formats.
 * @module
 */

import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  read,
  readSync,
} from "node:fs";
import { formatBytes } from "../limits.ts";

/** Why a file was not read. */
export type RefusalReason = "symlink" | "not-a-file" | "too-large";

/** A file that was refused: a link, a non-regular file, or over the bound. */
export class BoundedReadError extends Error {
  /** What was wrong with it. */
  readonly reason: RefusalReason;
  /** What was wrong, without the path: `is not a regular file`. */
  readonly why: string;

  /**
   * @param path The file.
   * @param reason What was wrong.
   * @param maxBytes The bound, for the message.
   */
  constructor(path: string, reason: RefusalReason, maxBytes: number) {
    const why = reason === "symlink"
      ? "is a symbolic link, which chant-wave does not follow here"
      : reason === "not-a-file"
      ? "is not a regular file"
      : `is larger than ${formatBytes(maxBytes)}`;
    super(`"${path}" ${why}`);
    this.name = "BoundedReadError";
    this.reason = reason;
    this.why = why;
  }
}

/** Options of {@linkcode readBoundedSync} and {@linkcode readBounded}. */
export interface BoundedReadOptions {
  /** The most bytes the file may hold. */
  maxBytes: number;
  /**
   * Follow a symbolic link at the last component of the path.
   * @default {false}
   */
  followLinks?: boolean;
}

function flags(followLinks: boolean | undefined): number {
  return constants.O_RDONLY | constants.O_NONBLOCK |
    (followLinks ? 0 : constants.O_NOFOLLOW);
}

/** Maps the open errors of a refused file to its reason; rethrows the rest. */
function refusal(path: string, error: unknown, maxBytes: number): never {
  const code = (error as { code?: string }).code;
  if (code === "ELOOP" || code === "EMLINK") {
    throw new BoundedReadError(path, "symlink", maxBytes);
  }
  if (code === "ENXIO" || code === "EISDIR") {
    throw new BoundedReadError(path, "not-a-file", maxBytes);
  }
  throw error;
}

const decoder = new TextDecoder();

/**
 * A full read buffer, doubled up to one byte past the bound (a file can grow
 * after its stat, and a `/proc` file reports size 0); a full buffer of that
 * size means the file is over the bound.
 */
function grow(buffer: Uint8Array, path: string, maxBytes: number): Uint8Array {
  if (buffer.length > maxBytes) {
    throw new BoundedReadError(path, "too-large", maxBytes);
  }
  const grown = new Uint8Array(Math.min(maxBytes + 1, buffer.length * 2));
  grown.set(buffer);
  return grown;
}

/**
 * Reads a whole regular file as UTF-8 (invalid bytes replaced), synchronously.
 * Synchronous on purpose: for thousands of small ledger records one blocking
 * open/fstat/read/close each is several times faster than `fs/promises`.
 * @param path The file.
 * @param options The byte bound, and whether a final symbolic link is followed.
 * @param scratch A reusable buffer of at least `maxBytes + 1` bytes, if any.
 * @returns The text.
 * @throws {BoundedReadError} For a link (unless followed), a FIFO, a device, a
 *   directory, or a file over the bound.
 * @throws {Error} When it cannot be opened or read otherwise (`ENOENT`, …).
 */
export function readBoundedSync(
  path: string,
  options: BoundedReadOptions,
  scratch?: Uint8Array,
): string {
  const { fd, size } = openRegular(path, options);
  try {
    const { maxBytes } = options;
    let buffer = scratch && scratch.length > maxBytes
      ? scratch.subarray(0, maxBytes + 1)
      : new Uint8Array(Math.min(maxBytes, size) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = grow(buffer, path, maxBytes);
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return decoder.decode(buffer.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/** Files up to this size are read in one blocking call by {@linkcode readBounded}. */
const SMALL_FILE_BYTES = 256 * 1024;

/**
 * Reads a whole regular file as UTF-8, like {@linkcode readBoundedSync} but
 * without blocking the event loop on a large file (plans, decisions): a file
 * the stat says is small (up to 256 KiB, a typical plan file) is read at once,
 * which costs far less than the five asynchronous calls of a larger one.
 * @param path The file.
 * @param options The byte bound, and whether a final symbolic link is followed.
 * @returns The text.
 * @throws {BoundedReadError} For a link (unless followed), a FIFO, a device, a
 *   directory, or a file over the bound.
 * @throws {Error} When it cannot be opened or read otherwise (`ENOENT`, …).
 */
export async function readBounded(
  path: string,
  options: BoundedReadOptions,
): Promise<string> {
  const { fd, size } = openRegular(path, options);
  try {
    const { maxBytes } = options;
    // Sized from the stat: a fresh 1 MiB buffer per plan file was most of the
    // cost of reading it.
    let buffer: Uint8Array = new Uint8Array(Math.min(maxBytes, size) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = grow(buffer, path, maxBytes);
      const room = buffer.length - length;
      const bytesRead = size < SMALL_FILE_BYTES
        ? readSync(fd, buffer, length, room, null)
        : await readAsync(fd, buffer, length, room);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return decoder.decode(buffer.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a file for a bounded read and checks it: a regular file (opened
 * without blocking and, unless allowed, without following a final link) whose
 * stat says it is within the bound.
 */
function openRegular(
  path: string,
  options: BoundedReadOptions,
): { fd: number; size: number } {
  const { maxBytes } = options;
  let fd: number;
  try {
    fd = openSync(path, flags(options.followLinks));
  } catch (error) {
    refusal(path, error, maxBytes);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new BoundedReadError(path, "not-a-file", maxBytes);
    }
    if (stat.size > maxBytes) {
      throw new BoundedReadError(path, "too-large", maxBytes);
    }
    return { fd, size: stat.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** `fs.read` of a descriptor, as a promise of the bytes read. */
function readAsync(
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, offset, length, null, (error, bytesRead) => {
      if (error) reject(error);
      else resolve(bytesRead);
    });
  });
}

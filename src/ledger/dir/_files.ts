/**
 * The file primitives of the directory ledger: list a folder (a missing one as
 * empty), read one record file within the bounds of SPEC.md §14, and write a
 * new file and publish it under its final name without ever replacing one.
 * Private to the directory ledger.
 * @module
 */

import { link, lstat, open, readdir, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { BoundedReadError, readBoundedSync } from "../../fs/read_bounded.ts";
import { MAX_RECORD_BYTES } from "../../limits.ts";
import { ShapeError } from "../../input/shape_error.ts";
import { parseRecord } from "../../gate/parse_record.ts";
import {
  isTemporaryName,
  LEDGER_SEGMENT,
  temporaryName,
} from "../../gate/record_name.ts";
import { type RandomBytes, randomHex } from "../../gate/random_hex.ts";
import type { LedgerRecord } from "../../gate/records.ts";
import { type Dirent, readdirSync } from "node:fs";
import { setImmediate } from "node:timers";

/** A record that could not be written; nothing was recorded. */
export class LedgerWriteError extends Error {
  /**
   * Makes the error `cannot write record "<path>": <why>`.
   * @param path The record's final path.
   * @param why What went wrong.
   * @param options The underlying error, as `cause`.
   */
  constructor(path: string, why: string, options?: ErrorOptions) {
    super(`cannot write record "${path}": ${why}`, options);
    this.name = "LedgerWriteError";
  }
}

/**
 * Reads one record file: the record, or one problem line. Only a regular file of
 * at most 64 KiB is read, without following a link or blocking on a FIFO.
 * Synchronous on purpose: for thousands of small files, one blocking
 * open/read/close each is several times faster than `fs/promises`.
 * @param scratch A reused buffer of at least 64 KiB + 1 bytes.
 * @param path The file.
 * @param name The spec `name` the record must be of.
 * @param gate The gate the record must be of.
 * @param problems Where a malformed optional field it drops is reported.
 * @returns The record, or why it does not count.
 */
export function readRecordFile(
  scratch: Uint8Array,
  path: string,
  name: string,
  gate: string,
  problems: string[] = [],
): LedgerRecord | string {
  let text: string;
  try {
    text = readBoundedSync(path, { maxBytes: MAX_RECORD_BYTES }, scratch);
  } catch (error) {
    if (error instanceof BoundedReadError) {
      return `${path}: ${error.why}; it does not count`;
    }
    return `${path}: cannot read the record: ${messageOf(error)}`;
  }
  try {
    const record = parseRecord(text, path, problems);
    if (record.name !== name || record.gate !== gate) {
      return `${path}: record is for gate "${record.gate}" of "${record.name}", ` +
        `not gate "${gate}" of "${name}"`;
    }
    return record;
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    throw error;
  }
}

/**
 * Moves a fully written temporary file to its final name without ever replacing
 * an existing file: a hard link (which fails if the name exists), or, where the
 * file system has no hard links, a rename after checking the name is free.
 */
async function publish(temp: string, final: string): Promise<void> {
  try {
    await link(temp, final);
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST") {
      throw new LedgerWriteError(final, "it already exists");
    }
    if (
      !["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EINVAL"].includes(
        code ?? "",
      )
    ) {
      throw error;
    }
  }
  const taken = await lstat(final).then(() => true, () => false);
  if (taken) throw new LedgerWriteError(final, "it already exists");
  await rename(temp, final);
}

/** Writes `text` to a new file (`wx`) and flushes it to disk. */
async function writeNew(path: string, text: string): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a new file atomically and never over another: the text goes to a hidden
 * temporary file in the same directory (`wx`, then fsync), which is linked to its
 * final name (failing if the name exists) and removed. A reader sees the whole
 * file or none; a crash leaves at most a temporary file, which readers skip.
 * @param dir The directory (it must exist).
 * @param fileName The final name.
 * @param text The content.
 * @param random The temporary name's random source.
 * @throws {LedgerWriteError} When the name is taken or the write fails.
 */
export async function writeNewFile(
  dir: string,
  fileName: string,
  text: string,
  random: RandomBytes,
): Promise<void> {
  const final = join(dir, fileName);
  const temp = join(dir, temporaryName(fileName, randomHex(8, random)));
  try {
    await writeNew(temp, text);
    await publish(temp, final);
  } catch (error) {
    if (error instanceof LedgerWriteError) throw error;
    throw new LedgerWriteError(final, messageOf(error), { cause: error });
  } finally {
    await unlink(temp).catch(() => {});
  }
}

/** The `code` of a Node error, if any. */
export function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Lists a directory's entries; a missing directory (or a file) lists as empty. */
export function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    return emptyIfMissing(dir, error);
  }
}

/**
 * Lists the ledger segments (spec names or gates) of `dir`: directories, and
 * symbolic links (so that the caller refuses them rather than skip them).
 */
export async function segmentsOf(dir: string): Promise<string[]> {
  return (await direntsOf(dir))
    .filter((entry) =>
      (entry.isDirectory() || entry.isSymbolicLink()) &&
      !isTemporaryName(entry.name) && LEDGER_SEGMENT.test(entry.name)
    )
    .map((entry) => entry.name)
    .sort();
}

/** Lists a directory's entries with their types; a missing one lists as empty. */
async function direntsOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    return emptyIfMissing(dir, error);
  }
}

/** A missing directory (or a file) lists as empty; other failures throw. */
export function emptyIfMissing(dir: string, error: unknown): never[] {
  if (["ENOENT", "ENOTDIR"].includes(errorCode(error) ?? "")) return [];
  throw new Error(`cannot list ledger directory "${dir}": ${messageOf(error)}`);
}

/** Lets timers and I/O callbacks run between chunks of synchronous reads. */
export function nextTurn(): Promise<void> {
  // setImmediate, not setTimeout(0): nested timeouts are clamped to 4 ms.
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Directory listing for the directory ledger: entries and ledger segments of a
 * directory, where a missing directory lists as empty, and a yield to the event
 * loop between chunks of synchronous reads.
 * @module
 */

import { type Dirent, readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { setImmediate } from "node:timers";
import { isTemporaryName, LEDGER_SEGMENT } from "../gate/record_name.ts";

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

export async function direntsOf(dir: string): Promise<Dirent[]> {
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

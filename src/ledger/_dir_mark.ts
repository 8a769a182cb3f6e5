/**
 * The directory ledger's mark (SPEC.md §4.12, §14): the kernel's change time
 * (ctime) of a new file made at the mark, which no process can set back (`touch
 * -d` sets the modification time only), against the change time of each record
 * file. A record changed at or after the mark arrived after it (equal counts as
 * after: the kernel's clock is coarse). Anything done to an older record (a
 * link, a chmod, a touch) only moves it later, so it can only stop counting.
 * Private to the directory ledger.
 * @module
 */

import { lstatSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LedgerMark } from "./ledger_store.ts";
import { type RandomBytes, randomHex } from "./random_hex.ts";
import { temporaryName } from "./record_name.ts";

/** A mark of the directory ledger. */
export interface DirMark extends LedgerMark {
  /** Always `directory`. */
  readonly store: "directory";
  /** The change time of the marker file, in nanoseconds since the epoch. */
  readonly changedNs: bigint;
}

/** The change time of a path (not following a link), in nanoseconds. */
function changeTimeNs(path: string): bigint {
  return lstatSync(path, { bigint: true }).ctimeNs;
}

/** Makes a new empty file in `dir` and removes it; returns its change time. */
async function markerTime(dir: string, random: RandomBytes): Promise<bigint> {
  const path = join(dir, temporaryName("mark", randomHex(8, random)));
  const handle = await open(path, "wx");
  try {
    await handle.close();
    return changeTimeNs(path);
  } finally {
    await unlink(path).catch(() => {});
  }
}

/**
 * Takes the mark: the change time of a file made (and removed at once) in the
 * ledger's root, or in the nearest folder above it that exists, or, where none
 * can be written, in the system's temporary folder. Nothing is left behind.
 * @param root The ledger's root.
 * @param random The marker's random name.
 * @returns The mark.
 * @throws {Error} When no marker can be made anywhere.
 */
export async function takeDirMark(
  root: string,
  random: RandomBytes,
): Promise<DirMark> {
  for (let dir = root;; dir = dirname(dir)) {
    try {
      return { store: "directory", changedNs: await markerTime(dir, random) };
    } catch {
      if (dirname(dir) === dir) break;
    }
  }
  return { store: "directory", changedNs: await markerTime(tmpdir(), random) };
}

/**
 * Whether the file at `path` changed at or after the mark (so it reached the
 * ledger after it). A file that cannot be looked at counts as late.
 * @param path A record file.
 * @param mark The mark.
 * @returns `true` when it arrived after the mark.
 */
export function changedSince(path: string, mark: DirMark): boolean {
  try {
    return changeTimeNs(path) >= mark.changedNs;
  } catch {
    return true;
  }
}

/**
 * The mark as this store reads it.
 * @param mark A mark from any store.
 * @returns The directory mark; another store's mark is a mark before every
 *   record (so every record counts as late: nothing loosens).
 */
export function asDirMark(mark: LedgerMark): DirMark {
  return mark.store === "directory"
    ? mark as DirMark
    : { store: "directory", changedNs: 0n };
}

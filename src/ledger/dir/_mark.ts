/**
 * The directory ledger's mark (SPEC.md §4.12, §14): what each gate the job
 * reads holds at the mark (its directory's identity and its record files'
 * names), and the kernel's change time (ctime) of a new file made at the mark,
 * which no process can set back (`touch -d` sets the modification time only).
 * A loosening record counts as before the mark only when its gate's directory
 * is the one the mark saw, its name was there at the mark, and its file last
 * changed before the mark (equal counts as after: the kernel's clock is
 * coarse). So a record moved in later counts as late, even inside a directory
 * renamed into place (which keeps its files' change times), and anything done
 * to an older record (a link, a chmod, a rename over it) only moves it later.
 * Private to the directory ledger.
 * @module
 */

import { lstatSync, readdirSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LedgerMark, MarkScope } from "../ledger_store.ts";
import {
  isRecordFileName,
  isTemporaryName,
  LEDGER_SEGMENT,
  temporaryName,
} from "../../gate/record_name.ts";
import { type RandomBytes, randomHex } from "../../gate/random_hex.ts";

/** What one gate's directory held at the mark. */
interface GateAtMark {
  /** The directory's device and inode: another directory in its place is not it. */
  readonly id: string;
  /** Its record files' names. */
  readonly files: ReadonlySet<string>;
}

/** A mark of the directory ledger. */
export interface DirMark extends LedgerMark {
  /** Always `directory`. */
  readonly store: "directory";
  /** The change time of the marker file, in nanoseconds since the epoch. */
  readonly changedNs: bigint;
  /** What each gate of the scope held, by `<name>/<gate>`. */
  readonly gates: ReadonlyMap<string, GateAtMark>;
}

/** The change time of a path (not following a link), in nanoseconds. */
function changeTimeNs(path: string): bigint {
  return lstatSync(path, { bigint: true }).ctimeNs;
}

/**
 * A file's kernel change time, which no process can set back (SPEC.md §19:
 * when a record reached the ledger at the earliest); a file that cannot be
 * looked at counts as changed now.
 * @param path The file.
 * @returns Milliseconds since the Unix epoch.
 */
export function changeTimeMs(path: string): number {
  try {
    return lstatSync(path).ctimeMs;
  } catch {
    return Date.now();
  }
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

/** The device and inode of a directory (not following a link), if it is one. */
function directoryId(path: string): string | undefined {
  try {
    const stat = lstatSync(path, { bigint: true });
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** The names in a directory, none when it cannot be listed. */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * What the gates of `names` hold: one listing of each name's folder and one
 * of each gate's (links and odd names are left out: their readers refuse them).
 */
function snapshot(
  root: string,
  scope: MarkScope,
): Map<string, GateAtMark> {
  const gates = new Map<string, GateAtMark>();
  for (const name of new Set(scope.names)) {
    if (!LEDGER_SEGMENT.test(name) || isTemporaryName(name)) continue;
    const folder = join(root, "gates", name);
    if (directoryId(folder) === undefined) continue;
    for (const gate of namesIn(folder)) {
      if (!LEDGER_SEGMENT.test(gate) || isTemporaryName(gate)) continue;
      const dir = join(folder, gate);
      const id = directoryId(dir);
      if (id === undefined) continue;
      const files = new Set(namesIn(dir).filter(isRecordFileName));
      gates.set(`${name}/${gate}`, { id, files });
    }
  }
  return gates;
}

/**
 * Takes the mark: what the gates of `scope` hold, then the change time of a
 * file made (and removed at once) in the ledger's root, or in the nearest
 * folder above it that exists, or, where none can be written, in the system's
 * temporary folder. Nothing is left behind.
 * @param root The ledger's root.
 * @param random The marker's random name.
 * @param scope The spec names whose gates the job reads.
 * @default scope no names: no loosening record counts as before the mark
 * @returns The mark.
 * @throws {Error} When no marker can be made anywhere.
 */
export async function takeDirMark(
  root: string,
  random: RandomBytes,
  scope: MarkScope = { names: [] },
): Promise<DirMark> {
  const gates = snapshot(root, scope);
  for (let dir = root;; dir = dirname(dir)) {
    try {
      const changedNs = await markerTime(dir, random);
      return { store: "directory", changedNs, gates };
    } catch {
      if (dirname(dir) === dir) break;
    }
  }
  const changedNs = await markerTime(tmpdir(), random);
  return { store: "directory", changedNs, gates };
}

/**
 * The record files a gate held at the mark, when its directory is still the
 * one the mark saw; `undefined` (nothing was there) otherwise.
 * @param mark The mark.
 * @param name The spec's `name`.
 * @param gate The gate.
 * @param dir The gate's directory.
 * @returns The names of the record files there at the mark.
 */
export function heldAtMark(
  mark: DirMark,
  name: string,
  gate: string,
  dir: string,
): ReadonlySet<string> | undefined {
  const held = mark.gates.get(`${name}/${gate}`);
  return held && directoryId(dir) === held.id ? held.files : undefined;
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
    : { store: "directory", changedNs: 0n, gates: new Map() };
}

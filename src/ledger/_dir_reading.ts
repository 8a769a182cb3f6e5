/**
 * What the directory ledger reads of a gate, and how little: each directory
 * checked for links once per store, the record files from the gate's newest
 * revoke on, the approvals whose claims are read; and reading a gate so.
 * Private to the directory ledger.
 * @module
 */

import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../clock.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import { MAX_RECORD_BYTES } from "../limits.ts";
import { readClaims } from "./_dir_claims.ts";
import { readRecordFile } from "./_dir_files.ts";
import { entriesOf, nextTurn } from "./_dir_listing.ts";
import {
  asDirMark,
  changedSince,
  type DirMark,
  heldAtMark,
} from "./_dir_mark.ts";
import { dropArrivedAfter, onlyTightens } from "../gate/arrived_after.ts";
import type { ReadGateOptions } from "./ledger_store.ts";
import { isRecordFileName, namedAs } from "../gate/record_name.ts";
import type { LedgerRecord } from "../gate/records.ts";
import { screenRecords } from "../gate/screen_records.ts";
import { dropApprovalCopies } from "../gate/approval_copies.ts";
import { sortRecords } from "../gate/sort_records.ts";
import type { GateRecords } from "../gate/screen_records.ts";

/** The gate a read is of, and the store's state it needs. */
export interface DirGate {
  /** The gate's directory, checked for links. */
  dir: string;
  /** The spec's `name`. */
  name: string;
  /** The gate. */
  gate: string;
  /** Record files read between two turns of the event loop. */
  chunk: number;
  /** The reader's clock (screening). */
  clock: Pick<Clock, "now">;
  /** The ids of the records the store wrote (they count for its job). */
  written: ReadonlySet<string>;
}

/**
 * Reads a gate of the directory ledger, as `dirLedger`'s `readGate` says.
 * @param at The gate and the store's state.
 * @param options The job's mark; whether only from the newest revoke on, or
 *   only the files named as some kinds.
 * @returns The records, oldest first, and the problems.
 */
export async function readDirGate(
  at: DirGate,
  options: ReadGateOptions = {},
): Promise<GateRecords> {
  const { dir, name, gate, chunk, clock, written } = at;
  const scratch = new Uint8Array(MAX_RECORD_BYTES + 1);
  const records: LedgerRecord[] = [];
  const problems: string[] = [];
  const arrived = new Set<LedgerRecord>();
  const mark = options.asOf && asDirMark(options.asOf);
  const held = mark && heldAtMark(mark, name, gate, dir);
  const late = (file: string, path: string) =>
    !held?.has(file) || changedSince(path, mark as DirMark);
  const read = (path: string) =>
    readRecordFile(scratch, path, name, gate, problems);
  const { kinds, live } = options;
  const listed = entriesOf(dir).filter((file) =>
    isRecordFileName(file) &&
    (kinds === undefined || live === true || namedAs(file, kinds))
  ).sort();
  const files = live ? fromNewestRevoke(listed, dir, read) : listed;
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && i % chunk === 0) await nextTurn();
    const path = `${dir}/${files[i]}`;
    const item = read(path);
    if (typeof item === "string") problems.push(item);
    else {
      records.push(item);
      if (mark && !onlyTightens(item) && late(files[i], path)) {
        arrived.add(item);
      }
    }
  }
  if (kinds === undefined || live === true || kinds.includes("claim")) {
    await readClaims(
      dir,
      read,
      records,
      problems,
      live && approvalsOf(records),
    );
  }
  const screened = dropApprovalCopies(screenRecords(
    { records: sortRecords(records), problems },
    clock.now(),
  ));
  return mark ? dropArrivedAfter(screened, arrived, written) : screened;
}

/**
 * Refuses a link on the way to `root/segments…` (SPEC.md §14), looking at each
 * directory once per store: one that was a real directory is not looked at
 * again (so a command checks each directory once, not once per read).
 */
export function refuseLinksOnce(
  root: string,
  segments: readonly string[],
  realDirs: Set<string>,
): void {
  let path = root;
  for (const [i, segment] of segments.entries()) {
    path = join(path, segment);
    if (realDirs.has(path)) continue;
    refuseLinks(root, segments.slice(0, i + 1), "the ledger");
    if (!isDirectory(path)) return;
    realDirs.add(path);
  }
}

/**
 * The record files from the gate's newest revoke on (by name, which is the
 * time it was written): nothing before it counts for a decision (SPEC.md §5.3).
 * A file named like a revoke that is not one is passed over.
 */
export function fromNewestRevoke(
  files: readonly string[],
  dir: string,
  read: (path: string) => LedgerRecord | string,
): readonly string[] {
  for (let i = files.length - 1; i > 0; i--) {
    if (!files[i].includes("-expired-")) continue;
    const found = read(`${dir}/${files[i]}`);
    if (typeof found !== "string" && found.kind === "expired") {
      // Every revoke's floor counts (`revoke_floor.ts`): the earlier ones too.
      const earlier = files.slice(0, i).filter((f) => f.includes("-expired-"));
      return [...earlier, ...files.slice(i)];
    }
  }
  return files;
}

/** The ids of the approvals among `records`. */
export function approvalsOf(records: readonly LedgerRecord[]): Set<string> {
  return new Set(
    records.filter((r) => r.kind === "approval").map((r) => r.id),
  );
}

/** Whether `path` is a directory (not following a link). */
function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * What the directory ledger reads of a gate, and how little: each directory
 * checked for links once per store, the record files from the gate's newest
 * revoke on, the approvals whose claims are read. Private to the directory
 * ledger.
 * @module
 */

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { refuseLinks } from "../fs/refuse_links.ts";
import type { LedgerRecord } from "./records.ts";

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
      return files.slice(i);
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

/**
 * Builds a git tree object's content from entries, in the order given (the
 * tests give them in git's order).
 * @module
 */

import type { TreeEntry } from "../../src/git/object_id.ts";

/** The raw content of a tree holding `entries`. */
export function treeBytes(entries: readonly TreeEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts: number[] = [];
  for (const entry of entries) {
    parts.push(...encoder.encode(`${entry.mode} ${entry.name}\0`));
    for (let i = 0; i < entry.oid.length; i += 2) {
      parts.push(parseInt(entry.oid.slice(i, i + 2), 16));
    }
  }
  return new Uint8Array(parts);
}

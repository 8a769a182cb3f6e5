/**
 * What changed between two versions of one git tree, pure and cheap for a
 * large tree that changed little: both entry lists are walked side by side and
 * entries whose bytes are equal are passed over without being decoded. Reading
 * the trees is the caller's.
 * @module
 */

import type { TreeEntry } from "./object_id.ts";

/** What {@linkcode diffTrees} found: entries only in the old tree, only in the new. */
export interface TreeChanges {
  /** Entries of the old tree that the new one lacks, or holds changed. */
  removed: TreeEntry[];
  /** Entries of the new tree that the old one lacks, or holds changed. */
  added: TreeEntry[];
}

const decoder = new TextDecoder();
const HEX = Array.from(
  { length: 256 },
  (_, b) => b.toString(16).padStart(2, "0"),
);

/** A cursor over a tree's raw entries. */
interface Cursor {
  bytes: Uint8Array;
  at: number;
  /** Where the current entry ends (after its id), and its name's bounds. */
  end: number;
  space: number;
  nul: number;
}

function load(cursor: Cursor, raw: number): boolean {
  const { bytes, at } = cursor;
  if (at >= bytes.length) return false;
  cursor.space = bytes.indexOf(0x20, at);
  cursor.nul = cursor.space < 0 ? -1 : bytes.indexOf(0, cursor.space + 1);
  if (cursor.nul < 0 || cursor.nul + 1 + raw > bytes.length) {
    throw new Error("a tree object is cut short");
  }
  cursor.end = cursor.nul + 1 + raw;
  return true;
}

function entryOf(cursor: Cursor): TreeEntry {
  const { bytes, at, space, nul, end } = cursor;
  let oid = "";
  for (let i = nul + 1; i < end; i++) oid += HEX[bytes[i]];
  return {
    mode: decoder.decode(bytes.subarray(at, space)),
    name: decoder.decode(bytes.subarray(space + 1, nul)),
    oid,
  };
}

function sameEntry(a: Cursor, b: Cursor): boolean {
  const length = a.end - a.at;
  if (length !== b.end - b.at) return false;
  for (let i = 0; i < length; i++) {
    if (a.bytes[a.at + i] !== b.bytes[b.at + i]) return false;
  }
  return true;
}

/** Git's tree order: names as bytes, a tree's name as if it ended in `/`. */
function compareNames(a: Cursor, b: Cursor): number {
  const key = (c: Cursor, i: number) => {
    const at = c.space + 1 + i;
    if (at < c.nul) return c.bytes[at];
    const isTree = c.bytes[c.at] === 0x34; // mode 40000
    return at === c.nul && isTree ? 0x2f : -1;
  };
  for (let i = 0;; i++) {
    const [x, y] = [key(a, i), key(b, i)];
    if (x !== y) return x - y;
    if (x === -1) return 0;
  }
}

/**
 * The entries that differ between two versions of a tree.
 * @param before The old tree's content.
 * @param after The new tree's content.
 * @param hexLength The length of the repository's ids in hex (40 or 64).
 * @returns What only the old and only the new version hold (a changed entry
 *   is in both lists).
 * @throws {Error} When a tree is cut short.
 * @example
 * ```ts
 * diffTrees(treeOf([a, b]), treeOf([a, c]), 40); // { removed: [b], added: [c] }
 * ```
 */
export function diffTrees(
  before: Uint8Array,
  after: Uint8Array,
  hexLength: number,
): TreeChanges {
  const raw = hexLength / 2;
  const a: Cursor = { bytes: before, at: 0, end: 0, space: 0, nul: 0 };
  const b: Cursor = { bytes: after, at: 0, end: 0, space: 0, nul: 0 };
  const changes: TreeChanges = { removed: [], added: [] };
  let hasA = load(a, raw);
  let hasB = load(b, raw);
  while (hasA || hasB) {
    if (hasA && hasB && sameEntry(a, b)) {
      a.at = a.end;
      b.at = b.end;
      hasA = load(a, raw);
      hasB = load(b, raw);
      continue;
    }
    const order = !hasA ? 1 : !hasB ? -1 : compareNames(a, b);
    if (order <= 0) {
      changes.removed.push(entryOf(a));
      a.at = a.end;
      hasA = load(a, raw);
    }
    if (order >= 0) {
      changes.added.push(entryOf(b));
      b.at = b.end;
      hasB = load(b, raw);
    }
  }
  return changes;
}

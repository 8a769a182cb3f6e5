/**
 * What changed between two versions of one git tree, pure and cheap for a
 * large tree that changed little: both entry lists are walked side by side and
 * entries whose bytes are equal are passed over without being decoded. Reading
 * the trees is the caller's.
 * @module
 */

import {
  decodeEntry,
  rawEntries,
  type RawEntry,
  type TreeEntry,
} from "./object_id.ts";

/** What {@linkcode diffTrees} found: entries only in the old tree, only in the new. */
export interface TreeChanges {
  /** Entries of the old tree that the new one lacks, or holds changed. */
  removed: TreeEntry[];
  /** Entries of the new tree that the old one lacks, or holds changed. */
  added: TreeEntry[];
}

/** A walk over a tree's raw entries: the current one, if any. */
interface Cursor {
  bytes: Uint8Array;
  entries: Generator<RawEntry>;
  entry?: RawEntry;
}

function cursor(bytes: Uint8Array, hexLength: number): Cursor {
  const walk: Cursor = { bytes, entries: rawEntries(bytes, hexLength) };
  return next(walk);
}

function next(walk: Cursor): Cursor {
  const step = walk.entries.next();
  walk.entry = step.done ? undefined : step.value;
  return walk;
}

function sameEntry(a: RawEntry, b: RawEntry, x: Uint8Array, y: Uint8Array) {
  const length = a.end - a.at;
  if (length !== b.end - b.at) return false;
  for (let i = 0; i < length; i++) {
    if (x[a.at + i] !== y[b.at + i]) return false;
  }
  return true;
}

/** Git's tree order: names as bytes, a tree's name as if it ended in `/`. */
function compareNames(a: Cursor, b: Cursor): number {
  const key = (c: Cursor, i: number) => {
    const { at, space, nul } = c.entry!;
    if (space + 1 + i < nul) return c.bytes[space + 1 + i];
    const isTree = c.bytes[at] === 0x34; // mode 40000
    return space + 1 + i === nul && isTree ? 0x2f : -1;
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
 * @throws {InputError} When a tree is cut short.
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
  const a = cursor(before, hexLength);
  const b = cursor(after, hexLength);
  const changes: TreeChanges = { removed: [], added: [] };
  while (a.entry || b.entry) {
    if (a.entry && b.entry && sameEntry(a.entry, b.entry, before, after)) {
      next(a);
      next(b);
      continue;
    }
    const order = !a.entry ? 1 : !b.entry ? -1 : compareNames(a, b);
    if (order <= 0) changes.removed.push(decodeEntry(before, a.entry!));
    if (order >= 0) changes.added.push(decodeEntry(after, b.entry!));
    if (order <= 0) next(a);
    if (order >= 0) next(b);
  }
  return changes;
}

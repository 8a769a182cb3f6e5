/**
 * Git's object format, pure: an object's id (the SHA-1 or SHA-256 of its
 * header and content), a tree's entries and a commit's header fields. Reading
 * objects is the caller's.
 * @module
 */

import { createDigest } from "../digest/hash.ts";
import { InputError } from "../errors.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** One entry of a tree object. */
export interface TreeEntry {
  /** `100644`, `40000`, `120000`, `160000`… */
  mode: string;
  /** Its name in the tree. */
  name: string;
  /** The object id, in hex. */
  oid: string;
}

const HEX = Array.from(
  { length: 256 },
  (_, b) => b.toString(16).padStart(2, "0"),
);
/**
 * The id git gives an object: the SHA-1 (40 hex digits) or SHA-256 (64) of
 * `<type> <size>\0<content>`.
 * @param type `blob`, `tree`, `commit`, `tag`.
 * @param bytes The content.
 * @param hexLength 40 or 64.
 * @returns The id in hex.
 * @example
 * ```ts
 * objectId("blob", new Uint8Array(), 40); // "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
 * ```
 */
export function objectId(
  type: string,
  bytes: Uint8Array,
  hexLength: number,
): string {
  return createDigest(hexLength === 64 ? "sha256" : "sha1")
    .update(encoder.encode(`${type} ${bytes.length}\0`))
    .update(bytes)
    .hex();
}

/** Where one raw entry of a tree lies: `<mode> <name>\0<id>`. */
export interface RawEntry {
  /** Where it starts. */
  at: number;
  /** The space after its mode. */
  space: number;
  /** The NUL after its name. */
  nul: number;
  /** Where it ends (after its id). */
  end: number;
}

/**
 * The raw entries of a tree object, in order, none decoded.
 * @param bytes The tree's content.
 * @param hexLength The length of the repository's ids in hex (40 or 64).
 * @returns Where each entry lies.
 * @throws {InputError} When the tree is cut short.
 */
export function* rawEntries(
  bytes: Uint8Array,
  hexLength: number,
): Generator<RawEntry> {
  for (let at = 0; at < bytes.length;) {
    const space = bytes.indexOf(0x20, at);
    const nul = space < 0 ? -1 : bytes.indexOf(0, space + 1);
    const end = nul + 1 + hexLength / 2;
    if (nul < 0 || end > bytes.length) {
      throw new InputError("a tree of the git ledger is cut short");
    }
    yield { at, space, nul, end };
    at = end;
  }
}

/**
 * Decodes one raw entry of a tree.
 * @param bytes The tree's content.
 * @param entry Where the entry lies.
 * @returns Its mode, name and id.
 */
export function decodeEntry(bytes: Uint8Array, entry: RawEntry): TreeEntry {
  let oid = "";
  for (let b = entry.nul + 1; b < entry.end; b++) oid += HEX[bytes[b]];
  return {
    mode: decoder.decode(bytes.subarray(entry.at, entry.space)),
    name: decoder.decode(bytes.subarray(entry.space + 1, entry.nul)),
    oid,
  };
}

/**
 * Parses a tree object.
 * @param bytes The tree's content.
 * @param hexLength The length of the repository's ids in hex (40 or 64).
 * @returns Its entries, in order.
 * @throws {InputError} When it is not a tree.
 */
export function treeEntries(bytes: Uint8Array, hexLength: number): TreeEntry[] {
  return [...rawEntries(bytes, hexLength)].map((e) => decodeEntry(bytes, e));
}

/**
 * The header fields of a commit object: `tree`, and each `parent`.
 * @param bytes The commit's content.
 * @returns Its tree and parents.
 */
export function commitFields(
  bytes: Uint8Array,
): { tree?: string; parents: string[] } {
  const text = decoder.decode(bytes.subarray(0, Math.min(bytes.length, 4096)));
  const parents: string[] = [];
  let tree: string | undefined;
  for (const line of text.split("\n")) {
    if (line === "") break;
    const [key, value] = [
      line.slice(0, line.indexOf(" ")),
      line.slice(line.indexOf(" ") + 1),
    ];
    if (key === "tree" && tree === undefined) tree = value;
    else if (key === "parent") parents.push(value);
  }
  return { ...(tree ? { tree } : {}), parents };
}

/**
 * Finds one entry of a tree by name without decoding the others: for a large
 * tree read for one entry.
 * @param bytes The tree's content.
 * @param name The entry's name.
 * @param hexLength The length of the repository's ids in hex (40 or 64).
 * @returns The entry, or `undefined`.
 * @throws {InputError} When the tree is cut short.
 */
export function findEntry(
  bytes: Uint8Array,
  name: string,
  hexLength: number,
): TreeEntry | undefined {
  const wanted = encoder.encode(name);
  for (const entry of rawEntries(bytes, hexLength)) {
    const { space, nul } = entry;
    if (
      nul - space - 1 === wanted.length &&
      wanted.every((byte, i) => bytes[space + 1 + i] === byte)
    ) return decodeEntry(bytes, entry);
  }
  return undefined;
}

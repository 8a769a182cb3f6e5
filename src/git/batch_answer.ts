/**
 * The answer `git cat-file --batch` prints, split into objects: pure, one entry
 * per name asked, in order, `undefined` for a name git does not have.
 * @module
 */

import { GitError } from "./git_error.ts";

/** An object as `cat-file --batch` gave it. */
export interface BatchObject {
  /** Its object id. */
  oid: string;
  /** `blob`, `tree`, `commit`. */
  type: string;
  /** Its content. */
  bytes: Uint8Array;
}

const decoder = new TextDecoder();
/** `<oid> <type> <size>`; anything else (`<name> missing`) names no object. */
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/;

/**
 * Parses a `cat-file --batch` answer.
 * @param out The answer's bytes.
 * @param count How many names were asked.
 * @param args The git arguments, for errors.
 * @returns One object (or `undefined`) per name.
 * @throws {GitError} When the answer is cut short.
 */
export function parseBatch(
  out: Uint8Array,
  count: number,
  args: readonly string[],
): (BatchObject | undefined)[] {
  const found: (BatchObject | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const end = out.indexOf(10, at);
    if (end < 0) throw new GitError(args, 0, "its output ended early");
    const header = HEADER.exec(decoder.decode(out.subarray(at, end)));
    at = end + 1;
    if (header === null) {
      found.push(undefined);
      continue;
    }
    const size = Number(header[3]);
    if (at + size > out.length) {
      throw new GitError(args, 0, `its output ended within ${header[1]}`);
    }
    found.push({
      oid: header[1],
      type: header[2],
      bytes: out.subarray(at, at + size),
    });
    at += size + 1;
  }
  return found;
}

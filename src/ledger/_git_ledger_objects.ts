/**
 * Reading objects of the git ledger's branch by name in one `git cat-file
 * --batch`: blobs by `<tip>:<path>`, refs by name, each answer in the order
 * asked, a missing one as `undefined`. Private to the git ledger.
 * @module
 */

import type { Git } from "../git/git.ts";
import { GitError } from "../git/git_error.ts";

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

/**
 * Reads objects by name (`<rev>:<path>`, a ref, an object id) in one process.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param names The names; none may hold a newline.
 * @returns One answer per name, in order: the object, or `undefined` when the
 *   name resolves to nothing.
 * @throws {GitError} When git fails or its output is cut.
 */
export async function readNamed(
  git: Git,
  cwd: string,
  names: readonly string[],
): Promise<(BatchObject | undefined)[]> {
  if (names.length === 0) return [];
  const args = ["cat-file", "--batch"];
  const out = await git.runBytes(args, {
    cwd,
    input: names.join("\n") + "\n",
  });
  return parseBatch(out, names.length, args);
}

/**
 * Parses a `cat-file --batch` answer: one entry per name asked, in order,
 * `undefined` for a name git does not have.
 * @param out The answer's bytes.
 * @param count How many names were asked.
 * @param args The git arguments, for errors.
 * @returns The objects.
 * @throws {GitError} When the answer is cut short or malformed.
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
    const header = decoder.decode(out.subarray(at, end)).split(" ");
    at = end + 1;
    if (header.length !== 3) {
      found.push(undefined);
      continue;
    }
    const size = Number(header[2]);
    if (!Number.isSafeInteger(size) || at + size > out.length) {
      throw new GitError(args, 0, `unexpected output "${header.join(" ")}"`);
    }
    found.push({
      oid: header[0],
      type: header[1],
      bytes: out.subarray(at, at + size),
    });
    at += size + 1;
  }
  return found;
}

/**
 * The text of a blob answer, or `undefined` for anything else.
 * @param object An answer of {@linkcode readNamed}.
 * @returns The UTF-8 text.
 */
export function blobText(object: BatchObject | undefined): string | undefined {
  return object?.type === "blob" ? decoder.decode(object.bytes) : undefined;
}

/** An object's type and size as `cat-file --batch-check` gives them. */
export interface ObjectInfo {
  /** Its object id. */
  oid: string;
  /** `blob`, `tree`, `commit`. */
  type: string;
  /** Its size in bytes. */
  size: number;
}

/**
 * Looks objects up by name without reading them, in one `cat-file
 * --batch-check`.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @param names The names (`<rev>:<path>`); none may hold a newline or a space.
 * @returns One answer per name, in order; `undefined` for a missing one.
 * @throws {GitError} When git fails.
 */
export async function infoNamed(
  git: Git,
  cwd: string,
  names: readonly string[],
): Promise<(ObjectInfo | undefined)[]> {
  if (names.length === 0) return [];
  const out = await git.run(["cat-file", "--batch-check"], {
    cwd,
    input: names.join("\n") + "\n",
  });
  return out.split("\n").slice(0, names.length).map((line) => {
    const [oid, type, size] = line.split(" ");
    return size === undefined || type === "missing"
      ? undefined
      : { oid, type, size: Number(size) };
  });
}

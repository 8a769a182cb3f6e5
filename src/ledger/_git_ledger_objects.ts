/**
 * Reading objects of the git ledger's branch by name in one `git cat-file
 * --batch`: blobs by `<tip>:<path>`, refs by name, each answer in the order
 * asked, a missing one as `undefined`. Private to the git ledger.
 * @module
 */

import type { Git } from "../git/git.ts";
import { type BatchObject, parseBatch } from "../git/batch_answer.ts";

export { type BatchObject, parseBatch };

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
  const out = await git.catFile("batch", names, cwd);
  return parseBatch(out, names.length, ["cat-file", "--batch"]);
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
  const out = decoder.decode(await git.catFile("batch-check", names, cwd));
  return out.split("\n").slice(0, names.length).map((line) => {
    const [oid, type, size] = line.split(" ");
    return size === undefined || type === "missing"
      ? undefined
      : { oid, type, size: Number(size) };
  });
}

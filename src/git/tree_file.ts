/**
 * Reads a file as committed, refusing links (SPEC.md §4.4, "paths are read in
 * git"): the entry at a path of a commit's tree is a regular file, absent, or
 * something chant-wave never follows: a symbolic link or a submodule at the path
 * or at any directory on it. Every object is read by its id, from the commit
 * down, and hashed against it: the change's own code may have rewritten the
 * clone's object files. Plumbing only (`cat-file`); it knows nothing of specs.
 * @module
 */

import type { Git } from "./git.ts";
import { GitError } from "./git_error.ts";
import { InputError } from "../errors.ts";
import { commitFields, objectId, treeEntries } from "./object_id.ts";
import { type BatchObject, parseBatch } from "./_cat_file_server.ts";

/** What a commit's tree holds at a path. */
export type TreeFile =
  /** A regular file: its blob id and text (UTF-8, a BOM dropped). */
  | { status: "file"; blob: string; text: string }
  /** Nothing at the path (or a directory, or a file where a directory was). */
  | { status: "absent" }
  /** A symbolic link or a submodule at `at` (the path or a directory on it). */
  | { status: "link" | "submodule"; at: string };

/** What a commit's tree holds at a path, before anything is read there. */
export type TreeEntryAt =
  /** A blob (a regular or executable file): its mode and id. */
  | { status: "entry"; mode: string; oid: string }
  | Exclude<TreeFile, { status: "file" }>;

const decoder = new TextDecoder();
const BATCH = ["cat-file", "--batch"] as const;

/** Whether `text` is a full object id (SHA-1 or SHA-256). */
const FULL_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Reads one object by its id and hashes it against that id: the change's own
 * code runs in this clone and could rewrite an object file (git does not hash
 * what it reads), so what does not hash to its name is refused.
 * @throws {InputError} Exit 2 when the content does not hash to `oid`.
 */
async function readChecked(
  git: Git,
  top: string,
  oid: string,
): Promise<BatchObject | undefined> {
  const [object] = parseBatch(await git.catFile("batch", [oid], top), 1, BATCH);
  if (object === undefined) return undefined;
  if (
    object.oid !== oid ||
    objectId(object.type, object.bytes, oid.length) !== oid
  ) {
    throw new InputError(
      `the ${object.type} ${oid} in this clone does not hash to its name: ` +
        `the clone's objects were changed, and nothing is read from them ` +
        `(run the job again in a fresh clone)`,
    );
  }
  return object;
}

/** The root tree of a commit or tree, read and checked from its id down. */
async function rootTree(
  git: Git,
  top: string,
  sha: string,
): Promise<BatchObject> {
  const id = FULL_OID.test(sha) ? sha : await git.resolveCommit(sha, top);
  const start = id === undefined ? undefined : await readChecked(git, top, id);
  const tree = start?.type === "commit"
    ? await readChecked(git, top, commitFields(start.bytes).tree ?? "")
    : start;
  if (tree?.type !== "tree") {
    throw new GitError(
      BATCH,
      0,
      `${sha}: not a tree object (nor a commit) in this repository`,
    );
  }
  return tree;
}

/**
 * Finds the entry at `path` in `sha`'s tree, checking every directory on the
 * way: the commit, its tree and each directory on the path are read by id and
 * hashed against it, and each entry's mode comes from the tree that lists it.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param sha The commit (any tree-ish).
 * @param path From the top level, `/`-separated, normalised (no `.`, `..` or
 *   empty segments).
 * @returns The blob's entry, `absent`, or where a link or submodule stands.
 * @throws {GitError} When `sha` is not in the repository or git fails otherwise.
 * @throws {InputError} Exit 2 when an object does not hash to its name.
 */
export async function treeEntryAt(
  git: Git,
  top: string,
  sha: string,
  path: string,
): Promise<TreeEntryAt> {
  if (sha.startsWith("-") || /[\s:]/.test(sha)) {
    throw new Error(`invalid commit "${sha}"`);
  }
  const segments = path.split("/");
  let tree = await rootTree(git, top, sha);
  for (const [i, segment] of segments.entries()) {
    const at = segments.slice(0, i + 1).join("/");
    const entry = treeEntries(tree.bytes, tree.oid.length)
      .find((e) => e.name === segment);
    if (entry === undefined) return { status: "absent" };
    if (entry.mode === "120000") return { status: "link", at };
    if (entry.mode === "160000") return { status: "submodule", at };
    const last = i === segments.length - 1;
    // A directory at the path, or a file where a directory was.
    if ((entry.mode === "40000") === last) return { status: "absent" };
    if (last) return { status: "entry", mode: entry.mode, oid: entry.oid };
    const next = await readChecked(git, top, entry.oid);
    if (next?.type !== "tree") {
      throw new GitError(BATCH, 0, `${sha}:${at} is missing`);
    }
    tree = next;
  }
  return { status: "absent" };
}

/**
 * Reads `path` in `sha`'s tree ({@linkcode treeEntryAt}, then its blob).
 * @param git The git seam.
 * @param top The repository's top level.
 * @param sha The commit (any tree-ish).
 * @param path From the top level, `/`-separated, normalised.
 * @returns The file, `absent`, or where a link or submodule stands.
 * @throws {GitError} When `sha` is not in the repository or git fails otherwise.
 */
export async function readTreeFile(
  git: Git,
  top: string,
  sha: string,
  path: string,
): Promise<TreeFile> {
  const entry = await treeEntryAt(git, top, sha, path);
  if (entry.status !== "entry") return entry;
  const bytes = await readBlob(git, top, entry.oid);
  return { status: "file", blob: entry.oid, text: decoder.decode(bytes) };
}

/**
 * The content of one blob, hashed against its id.
 * @param git The git seam.
 * @param top A directory inside the repository.
 * @param oid The blob's id.
 * @returns Its bytes.
 * @throws {GitError} When the repository has no such blob.
 */
export async function readBlob(
  git: Git,
  top: string,
  oid: string,
): Promise<Uint8Array> {
  const blob = await readChecked(git, top, oid);
  if (blob?.type !== "blob") {
    throw new GitError(BATCH, 0, `${oid} is not a blob here`);
  }
  return blob.bytes;
}

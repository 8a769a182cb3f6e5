/**
 * Reads a file as committed, refusing links (SPEC.md §4.4, "paths are read in
 * git"): the entry at a path of a commit's tree is a regular file, absent, or
 * something chant-wave never follows: a symbolic link or a submodule at the path
 * or at any directory on it. Plumbing only (`cat-file`); it knows
 * nothing of specs.
 * @module
 */

import type { Git } from "./git.ts";
import { GitError } from "./git_error.ts";
import { treeEntries } from "./object_id.ts";
import { parseBatch } from "./batch_answer.ts";

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

/**
 * Finds the entry at `path` in `sha`'s tree, checking every directory on the
 * way: one `cat-file --batch` answers the root tree and each directory on the
 * path, and each entry's mode comes from the tree that lists it.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param sha The commit (any tree-ish).
 * @param path From the top level, `/`-separated, normalised (no `.`, `..` or
 *   empty segments).
 * @returns The blob's entry, `absent`, or where a link or submodule stands.
 * @throws {GitError} When `sha` is not in the repository or git fails otherwise.
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
  if (path.includes("\n")) return { status: "absent" };
  const segments = path.split("/");
  const names = [`${sha}^{tree}`];
  for (let i = 1; i < segments.length; i++) {
    names.push(`${sha}:${segments.slice(0, i).join("/")}`);
  }
  const trees = parseBatch(
    await git.catFile("batch", names, top),
    names.length,
    BATCH,
  );
  if (trees[0]?.type !== "tree") {
    throw new GitError(
      BATCH,
      0,
      `${sha}: not a tree object in this repository`,
    );
  }
  for (const [i, tree] of trees.entries()) {
    const at = segments.slice(0, i + 1).join("/");
    if (tree?.type !== "tree") {
      throw new GitError(BATCH, 0, `${sha}:${at} is missing`);
    }
    const entry = treeEntries(tree.bytes, tree.oid.length)
      .find((e) => e.name === segments[i]);
    if (entry === undefined) return { status: "absent" };
    if (entry.mode === "120000") return { status: "link", at };
    if (entry.mode === "160000") return { status: "submodule", at };
    const last = i === segments.length - 1;
    // A directory at the path, or a file where a directory was.
    if ((entry.mode === "40000") === last) return { status: "absent" };
    if (last) return { status: "entry", mode: entry.mode, oid: entry.oid };
    if (trees[i + 1]?.oid !== entry.oid) {
      throw new GitError(BATCH, 0, `${sha}:${at} is not the tree it names`);
    }
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
 * The content of one blob.
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
  const [blob] = parseBatch(await git.catFile("batch", [oid], top), 1, BATCH);
  if (blob?.type !== "blob" || blob.oid !== oid) {
    throw new GitError(BATCH, 0, `${oid} is not a blob here`);
  }
  return blob.bytes;
}

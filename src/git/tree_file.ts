/**
 * Reads a file as committed, refusing links (SPEC.md §4.4, "paths are read in
 * git"): the entry at a path of a commit's tree is a regular file, absent, or
 * something chant-wave never follows: a symbolic link or a submodule at the path
 * or at any directory on it. Plumbing only (`ls-tree`, `cat-file`); it knows
 * nothing of specs.
 * @module
 */

import type { Git } from "./git.ts";

/** What a commit's tree holds at a path. */
export type TreeFile =
  /** A regular file: its blob id and text (UTF-8, a BOM dropped). */
  | { status: "file"; blob: string; text: string }
  /** Nothing at the path (or a directory, or a file where a directory was). */
  | { status: "absent" }
  /** A symbolic link or a submodule at `at` (the path or a directory on it). */
  | { status: "link" | "submodule"; at: string };

interface Entry {
  mode: string;
  oid: string;
}

const decoder = new TextDecoder();

/**
 * Reads `path` in `sha`'s tree, checking every directory on the way.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param sha The commit (any tree-ish).
 * @param path From the top level, `/`-separated, normalised (no `.`, `..` or
 *   empty segments).
 * @returns The file, `absent`, or where a link or submodule stands.
 * @throws {GitError} When `sha` is not in the repository or git fails otherwise.
 */
export async function readTreeFile(
  git: Git,
  top: string,
  sha: string,
  path: string,
): Promise<TreeFile> {
  const entries = await lsTree(git, top, sha, path, true);
  const segments = path.split("/");
  for (let i = 1; i <= segments.length; i++) {
    const at = segments.slice(0, i).join("/");
    // ls-tree lists no entry below a link or submodule: ask for it by name.
    const entry = entries.get(at) ?? (await lsTree(git, top, sha, at)).get(at);
    if (entry === undefined) return { status: "absent" };
    if (entry.mode === "120000") return { status: "link", at };
    if (entry.mode === "160000") return { status: "submodule", at };
    const last = i === segments.length;
    if (entry.mode === "040000") {
      if (last) return { status: "absent" };
      continue;
    }
    if (!last) return { status: "absent" };
    const bytes = await git.runBytes(["cat-file", "blob", entry.oid], {
      cwd: top,
    });
    return {
      status: "file",
      blob: entry.oid,
      text: decoder.decode(bytes),
    };
  }
  return { status: "absent" };
}

/** The entries `ls-tree` prints for `path` (with `-t`, every tree on the way). */
async function lsTree(
  git: Git,
  top: string,
  sha: string,
  path: string,
  trees = false,
): Promise<Map<string, Entry>> {
  if (sha.startsWith("-")) throw new Error(`invalid commit "${sha}"`);
  const stdout = await git.run([
    "--literal-pathspecs",
    "ls-tree",
    "--full-tree",
    ...(trees ? ["-t"] : []),
    "-z",
    sha,
    "--",
    path,
  ], { cwd: top });
  const entries = new Map<string, Entry>();
  for (const record of stdout.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode, , oid] = record.slice(0, tab).split(" ");
    entries.set(record.slice(tab + 1), { mode, oid });
  }
  return entries;
}

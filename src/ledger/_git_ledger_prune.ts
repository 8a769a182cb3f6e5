/**
 * Removing many files from the git ledger's tree at once, at a cost linear in
 * the folders they are in: each folder that loses files is written again
 * without them, all in one `git mktree --batch`, and the commit sets it to that
 * tree; a folder left empty is removed instead. (`git fast-import` removes
 * one path at a time, each a scan of its folder: folding 50,000 records of one
 * gate that way took half a minute.) Compaction's; private to the git ledger.
 * @module
 */

import { posix } from "node:path";
import { GitError } from "../git/git_error.ts";
import type { ObjectReader } from "./_git_ledger_verified.ts";

/** What removing files from a tip's tree comes to, folder by folder. */
export interface PrunedTrees {
  /** Folders that keep some of their entries: each one's new tree, parents first. */
  trees: { path: string; oid: string }[];
  /** Folders that keep none: to remove (git drops a parent emptied by that). */
  emptied: string[];
}

/** The type `git mktree` wants beside a mode: a folder, a submodule, a file. */
function typeOf(mode: string): string {
  const kind = parseInt(mode, 8) & 0o170000;
  return kind === 0o040000 ? "tree" : kind === 0o160000 ? "commit" : "blob";
}

/**
 * Works out the trees of `base`'s folders without the files `remove` names
 * (a path that is not there is left alone), and writes them (see the module).
 * @param objects The clone's checked objects (the folders are read through it).
 * @param base The tip to remove from.
 * @param remove Paths of files, from the top.
 * @returns The new trees and the emptied folders; a folder not there is in neither.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its name.
 */
export async function pruneTrees(
  objects: ObjectReader,
  base: string,
  remove: readonly string[],
): Promise<PrunedTrees> {
  const byFolder = new Map<string, Set<string>>();
  for (const path of remove) {
    const folder = posix.dirname(path);
    const names = byFolder.get(folder) ?? new Set();
    byFolder.set(folder, names.add(posix.basename(path)));
  }
  const folders = [...byFolder.keys()].sort((a, b) =>
    a.split("/").length - b.split("/").length || (a < b ? -1 : a > b ? 1 : 0)
  );
  const found = await objects.at(base, folders);
  const trees: { path: string; entries: string }[] = [];
  const emptied: string[] = [];
  folders.forEach((path, i) => {
    const tree = found[i];
    if (tree?.type !== "tree") return;
    const gone = byFolder.get(path)!;
    const kept = [...objects.entries(tree).values()]
      .filter((entry) => !gone.has(entry.name));
    if (kept.length === 0) return emptied.push(path);
    trees.push({
      path,
      entries: kept.map(({ mode, oid, name }) =>
        `${mode} ${typeOf(mode)} ${oid}\t${name}\0`
      ).join(""),
    });
  });
  if (trees.length === 0) return { trees: [], emptied };
  // --missing: a submodule's commit is never here, and every entry comes from
  // a tree already checked, so there is nothing for mktree to look up.
  const args = ["mktree", "-z", "--missing", "--batch"];
  const out = await objects.git.run(args, {
    cwd: objects.cwd,
    input: trees.map((tree) => `${tree.entries}\0`).join(""),
  });
  const oids = out.split("\n").slice(0, trees.length);
  if (!oids.every((oid) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid))) {
    throw new GitError(args, 0, `unexpected output "${out.slice(0, 100)}"`);
  }
  return {
    trees: trees.map((tree, i) => ({ path: tree.path, oid: oids[i] })),
    emptied,
  };
}

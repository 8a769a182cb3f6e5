/**
 * Removing many files from the git ledger's tree at once, at a cost linear in
 * the folders they are in: each folder that loses files is written again
 * without them, all in one `git mktree --batch`, and the commit sets it to that
 * tree; a folder left empty is removed instead. (`git fast-import` removes
 * one path at a time, each a scan of its folder: folding 50,000 records of one
 * gate that way took half a minute.) Compaction's; private to the git ledger.
 * @module
 */

import { GitError } from "../git/git_error.ts";
import type { ObjectReader } from "./_git_ledger_verified.ts";

/** What removing files from a tip's tree comes to, folder by folder. */
export interface PrunedTrees {
  /** Folders that keep some of their entries: each one's new tree, parents first. */
  trees: { path: string; oid: string }[];
  /**
   * Paths still to remove one by one: folders that keep none of their
   * entries (git drops a parent emptied by that) and files at the top.
   */
  remove: string[];
}

/** The type `git mktree` wants beside a mode: a folder, a submodule, a file. */
function typeOf(mode: string): string {
  const kind = parseInt(mode, 8) & 0o170000;
  return kind === 0o040000 ? "tree" : kind === 0o160000 ? "commit" : "blob";
}

/**
 * The names each folder loses, parents first; a folder that goes itself (it,
 * or a folder above it, is in `remove`) is left out. Paths at the top go to
 * `top`.
 */
function byFolder(remove: readonly string[], top: string[]) {
  const removed = new Set(remove);
  const folders = new Map<string, Set<string>>();
  for (const path of removed) {
    const cut = path.lastIndexOf("/");
    if (cut < 0) {
      top.push(path);
      continue;
    }
    const folder = path.slice(0, cut);
    const names = folders.get(folder) ?? new Set();
    folders.set(folder, names.add(path.slice(cut + 1)));
  }
  const goes = (folder: string) =>
    folder.split("/").some((_, i, parts) =>
      removed.has(parts.slice(0, i + 1).join("/"))
    );
  return [...folders].filter(([folder]) => !goes(folder)).sort(([a], [b]) =>
    a.split("/").length - b.split("/").length || (a < b ? -1 : a > b ? 1 : 0)
  );
}

/**
 * Works out the trees of `base`'s folders without the paths `remove` names
 * (one that is not there is left alone), and writes them (see the module).
 * Setting the trees, parents first, then removing `remove` of the answer,
 * leaves the tree that removing each path of `remove` would.
 * @param objects The clone's checked objects (the folders are read through it).
 * @param base The tip to remove from.
 * @param remove Paths from the top.
 * @returns The new trees and what is still to remove.
 * @throws {GitError} When git fails.
 * @throws {InputError} When an object does not hash to its name.
 */
export async function pruneTrees(
  objects: ObjectReader,
  base: string,
  remove: readonly string[],
): Promise<PrunedTrees> {
  const rest: string[] = [];
  const folders = byFolder(remove, rest);
  const found = await objects.at(base, folders.map(([path]) => path));
  const trees: { path: string; entries: string }[] = [];
  folders.forEach(([path, gone], i) => {
    const tree = found[i];
    if (tree?.type !== "tree") return;
    const kept = [...objects.entries(tree).values()]
      .filter((entry) => !gone.has(entry.name));
    if (kept.length === 0) return rest.push(path);
    trees.push({
      path,
      entries: kept.map(({ mode, oid, name }) =>
        `${mode} ${typeOf(mode)} ${oid}\t${name}\0`
      ).join(""),
    });
  });
  if (trees.length === 0) return { trees: [], remove: rest };
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
    remove: rest,
  };
}

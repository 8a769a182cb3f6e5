/**
 * Following paths from a commit of the git ledger down, every object checked:
 * the commit, its tree and each tree on the way, each child the object its
 * parent tree names. Private to the git ledger (`_git_ledger_verified.ts`
 * reads and checks the objects).
 * @module
 */

import { InputError } from "../errors.ts";
import { commitFields } from "../git/object_id.ts";
import type { TreeEntry } from "../git/object_id.ts";
import type { BatchObject } from "./_git_ledger_objects.ts";

/** What a path at a commit names, checked. */
export interface FoundObject extends BatchObject {
  /** The entry's mode in its tree (`40000` for the root tree). */
  mode: string;
}

/** What following paths needs of the checked reader. */
export interface TreeAccess {
  /** Objects by id, each checked. */
  byId(oids: readonly string[]): Promise<Map<string, BatchObject>>;
  /** A checked tree's entries by name. */
  entries(tree: BatchObject): ReadonlyMap<string, TreeEntry>;
}

/** Reads objects by name in one batch. */
export type Batch = (
  names: readonly string[],
) => Promise<(BatchObject | undefined)[]>;
/** Checks an object against the id it was asked by, and keeps it. */
export type Check = (
  object: BatchObject,
  asked: string,
  what: string,
) => Promise<BatchObject>;
/** An object checked before, if kept. */
export type Peek = (oid: string) => BatchObject | undefined;

/** Every prefix of the paths, parents first (`a`, `a/b`, `a/b/c`). */
function prefixesOf(paths: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/").filter((part) => part !== "");
    for (let i = 1; i <= parts.length; i++) {
      prefixes.add(parts.slice(0, i).join("/"));
    }
  }
  return [...prefixes].sort((a, b) =>
    a.split("/").length - b.split("/").length
  );
}

/**
 * Follows each path from commit `tip` down, each child the object its checked
 * parent tree names. A commit read before is followed level by level by id
 * (objects read before are not read again); otherwise the commit, its tree and
 * every tree on the way are asked by name in one batch (`<tip>`,
 * `<tip>^{tree}`, `<tip>:<prefix>`) and each checked against its parent's
 * entry.
 * @param reader The checked reader (objects by id, tree entries).
 * @param access Batch reads by name, the checker, and the kept objects.
 * @param tip The commit.
 * @param paths Paths from the top.
 * @returns What each path names (`undefined`: nothing there).
 * @throws {InputError} When an object is missing or does not hash to its name.
 */
export async function resolvePaths(
  reader: TreeAccess,
  access: { batch: Batch; check: Check; peek: Peek },
  tip: string,
  paths: readonly string[],
): Promise<(FoundObject | undefined)[]> {
  const { batch, check, peek } = access;
  const prefixes = prefixesOf(paths);
  const found = new Map<string, FoundObject | undefined>();
  const cached = peek(tip);
  let byName: (BatchObject | undefined)[] | undefined;
  if (cached === undefined || cached.type !== "commit") {
    const names = [tip, `${tip}^{tree}`, ...prefixes.map((p) => `${tip}:${p}`)];
    byName = await batch(names);
  }
  const commit = cached ?? byName?.[0];
  if (commit?.type !== "commit") {
    throw new InputError(`the git ledger's commit ${tip} is not in this clone`);
  }
  if (!cached) await check(commit, tip, "commit");
  const rootId = commitFields(commit.bytes).tree;
  let root: BatchObject | undefined;
  if (rootId !== undefined && byName?.[1]) {
    root = await check(byName[1], rootId, "tree");
  } else if (rootId !== undefined && !byName) {
    root = (await reader.byId([rootId])).get(rootId);
  }
  if (root?.type !== "tree") {
    throw new InputError(`the git ledger's commit ${tip} has no tree`);
  }
  found.set("", { ...root, mode: "40000" });
  const parentOf = (path: string) => {
    const cut = path.lastIndexOf("/");
    return found.get(cut < 0 ? "" : path.slice(0, cut));
  };
  const entryOf = (path: string) => {
    const parent = parentOf(path);
    return parent?.type === "tree"
      ? reader.entries(parent).get(path.slice(path.lastIndexOf("/") + 1))
      : undefined;
  };
  const missing = (path: string, oid: string) =>
    new InputError(
      `the git ledger's object ${oid} ("${path}" at ${
        tip.slice(0, 12)
      }) is not in this clone`,
    );
  if (byName) {
    for (const [i, path] of prefixes.entries()) {
      const entry = entryOf(path);
      const object = byName[i + 2];
      if (entry === undefined || entry.mode === "160000") {
        found.set(path, undefined);
      } else if (object === undefined) throw missing(path, entry.oid);
      else {
        const checked = await check(object, entry.oid, object.type);
        found.set(path, { ...checked, mode: entry.mode });
      }
    }
  } else {
    for (let depth = 1; found.size <= prefixes.length; depth++) {
      const level = prefixes.filter((p) => p.split("/").length === depth);
      if (level.length === 0) break;
      const entries = level.map(entryOf);
      const objects = await reader.byId(
        entries.flatMap((e) => e && e.mode !== "160000" ? [e.oid] : []),
      );
      level.forEach((path, i) => {
        const entry = entries[i];
        if (entry === undefined || entry.mode === "160000") {
          found.set(path, undefined);
          return;
        }
        const object = objects.get(entry.oid);
        if (object === undefined) throw missing(path, entry.oid);
        found.set(path, { ...object, mode: entry.mode });
      });
    }
  }
  return paths.map((path) =>
    found.get(path.split("/").filter(Boolean).join("/"))
  );
}

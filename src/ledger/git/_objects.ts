/**
 * Reading the git ledger's objects (SPEC.md §4.12): by name in one `git
 * cat-file --batch` (`readNamed`, `infoNamed`), and checked against their
 * names (`objectReader`). Git does not hash a loose or packed object again
 * when it reads it, and the change's code runs in the job's clone before the
 * ledger is read, so it could have rewritten any object file: every object a
 * gate's reader uses is hashed here with git's header (`<type> <size>\0`,
 * SHA-1 or SHA-256 by the length of its name) and compared with the name it was
 * asked by; a path at a commit is followed from the commit down, each tree's
 * entry naming the next object. A mismatch is an input error naming the object
 * and its file. Checked objects are kept by id, so a later read (or a later
 * rewrite of the file) changes nothing. Private to the git ledger.
 * @module
 */

import type { Git } from "../../git/git.ts";
import { type BatchObject, parseBatch } from "../../git/_cat_file_server.ts";
import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { InputError } from "../../errors.ts";
import {
  commitFields,
  objectId,
  treeEntries,
  type TreeEntry,
} from "../../git/object_id.ts";

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

export type { TreeEntry };

/** Reads the ledger's objects, each checked against its name. */
export interface ObjectReader {
  /** The git seam. */
  readonly git: Git;
  /** A directory inside the repository. */
  readonly cwd: string;
  /**
   * Objects by id in one `cat-file --batch`, each checked; a missing one is
   * left out.
   * @throws {InputError} When one does not hash to its id.
   */
  byId(oids: readonly string[]): Promise<Map<string, BatchObject>>;
  /**
   * What each path names at commit `tip` (`undefined`: nothing there), every
   * object from the commit down checked, in one `cat-file --batch`.
   * @throws {InputError} When one does not hash to its id or a tree names an
   *   object the clone lacks.
   */
  at(
    tip: string,
    paths: readonly string[],
  ): Promise<(FoundObject | undefined)[]>;
  /**
   * Sizes by name (an id, `<rev>:<path>`; `cat-file --batch-check`): a limit
   * and a hint only, never trusted.
   */
  sizes(names: readonly string[]): Promise<(ObjectInfo | undefined)[]>;
  /**
   * The entries of a checked tree, by name (parsed once per tree).
   * @throws {InputError} When it is not a tree.
   */
  entries(tree: BatchObject): ReadonlyMap<string, TreeEntry>;
}

/** The most sizes kept by id (a gate of 50,000 records, read twice over). */
const MAX_LOOKED = 200_000;
/** The most bytes of checked objects kept (a gate of 50,000 records: 3 MB). */
const KEPT_BYTES = 64 * 1024 * 1024;

/** Where git keeps an object as a loose file, when it is one. */
async function objectFile(git: Git, cwd: string, oid: string): Promise<string> {
  const rel = `objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  const out = await git.exec(["rev-parse", "--git-path", rel], { cwd });
  const path = decoder.decode(out.stdout).trim();
  const full = isAbsolute(path) ? path : join(cwd, path);
  return await stat(full).then(
    () => `the file "${full}"`,
    () => "a pack file under objects/pack",
  );
}

/** The error for an object whose content does not hash to its id. */
async function tampered(
  git: Git,
  cwd: string,
  oid: string,
  what: string,
): Promise<InputError> {
  return new InputError(
    `the git ledger's ${what} ${oid} in this clone does not hash to its ` +
      `name: ${await objectFile(git, cwd, oid)} was changed; nothing in the ` +
      `ledger counts from this clone (read it from a fresh clone)`,
  );
}

/**
 * Makes the checked object reader of one clone.
 * @param git The git seam.
 * @param cwd A directory inside the repository.
 * @returns The reader; it keeps what it checked (up to 64 MB).
 */
export function objectReader(git: Git, cwd: string): ObjectReader {
  const kept = new Map<string, BatchObject>();
  const parsed = new Map<string, Map<string, TreeEntry>>();
  /** Sizes looked up by id (never trusted: a limit only). */
  const looked = new Map<string, ObjectInfo>();
  let bytes = 0;
  const keep = (object: BatchObject) => {
    if (kept.has(object.oid)) return;
    kept.set(object.oid, object);
    bytes += object.bytes.length;
    for (const [oid, old] of kept) {
      if (bytes <= KEPT_BYTES) break;
      kept.delete(oid);
      parsed.delete(oid);
      bytes -= old.bytes.length;
    }
  };
  const batch = async (names: readonly string[]) => {
    if (names.length === 0) return [];
    const out = await git.catFile("batch", names, cwd);
    return parseBatch(out, names.length, ["cat-file", "--batch"]);
  };
  /** Checks an object against the id it was asked by. */
  const check = async (object: BatchObject, asked: string, what: string) => {
    if (
      object.oid !== asked ||
      objectId(object.type, object.bytes, asked.length) !== asked
    ) {
      throw await tampered(git, cwd, asked, what);
    }
    keep(object);
    return object;
  };
  const reader: ObjectReader = {
    git,
    cwd,
    async byId(oids) {
      const result = new Map<string, BatchObject>();
      const wanted = [...new Set(oids)].filter((oid) => {
        const known = kept.get(oid);
        if (known) result.set(oid, known);
        return !known;
      });
      const found = await batch(wanted);
      for (const [i, object] of found.entries()) {
        if (object) {
          result.set(wanted[i], await check(object, wanted[i], object.type));
        }
      }
      return result;
    },
    async at(tip, paths) {
      return await resolvePaths(
        reader,
        {
          batch,
          check,
          peek: (oid) => kept.get(oid),
        },
        tip,
        paths,
      );
    },
    async sizes(names) {
      // An object checked or looked up before by its id is not asked again
      // (objects do not change under their ids); other names always are.
      const known = (name: string): ObjectInfo | undefined => {
        const object = kept.get(name);
        return object
          ? { oid: name, type: object.type, size: object.bytes.length }
          : looked.get(name);
      };
      const wanted = [...new Set(names.filter((name) => !known(name)))];
      const found = await infoNamed(git, cwd, wanted);
      if (looked.size + wanted.length > MAX_LOOKED) looked.clear();
      const answers = new Map<string, ObjectInfo | undefined>();
      wanted.forEach((name, i) => {
        const info = found[i];
        answers.set(name, info);
        if (info !== undefined && info.oid === name) looked.set(name, info);
      });
      return names.map((name) => known(name) ?? answers.get(name));
    },
    entries(tree) {
      const known = parsed.get(tree.oid);
      if (known) return known;
      if (tree.type !== "tree") {
        throw new InputError(
          `the git ledger's object ${tree.oid} is not a tree`,
        );
      }
      const byName = new Map(
        treeEntries(tree.bytes, tree.oid.length).map((e) => [e.name, e]),
      );
      if (kept.has(tree.oid)) parsed.set(tree.oid, byName);
      return byName;
    },
  };
  return reader;
}

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
 * @throws {InputError} When an object is missing or does not hash to its name.
 */
async function resolvePaths(
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

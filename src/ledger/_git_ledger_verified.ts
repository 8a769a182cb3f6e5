/**
 * Reading the git ledger's objects checked against their names (SPEC.md
 * §4.12): git does not hash a loose or packed object again when it reads it,
 * and the change's code runs in the job's clone before the ledger is read, so
 * it could have rewritten any object file. Every object a gate's reader uses
 * is hashed here with git's header (`<type> <size>\0`, SHA-1 or SHA-256 by the
 * length of its name) and compared with the name it was asked by; a path at a
 * commit is followed from the commit down, each tree's entry naming the next
 * object. A mismatch is an input error naming the object and its file. Checked
 * objects are kept by id, so a later read (or a later rewrite of the file)
 * changes nothing; so are sizes looked up (objects do not change under their
 * ids). Private to the git ledger.
 * @module
 */

import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import type { BatchObject, ObjectInfo } from "./_git_ledger_objects.ts";
import { infoNamed, parseBatch } from "./_git_ledger_objects.ts";
import { type FoundObject, resolvePaths } from "./_git_ledger_resolve.ts";
import { objectId, treeEntries, type TreeEntry } from "../git/object_id.ts";

export type { FoundObject, TreeEntry };

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

const decoder = new TextDecoder();
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

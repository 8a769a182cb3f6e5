/**
 * Where the spec is, in git's terms (SPEC.md §4.4, "paths are read in git"): the
 * path as written, taken from the repository's top level and normalised without
 * asking the file system, so a link in the work tree cannot send the base read
 * to another file; and the refusal of a path that is, or passes through, a
 * symbolic link or a submodule in the work tree or in a commit's tree.
 * @module
 */

import { lstatSync } from "node:fs";
// @ts-types="../../types/std/path.d.ts"
import { isAbsolute, join, relative } from "@std/path";
import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import type { TreeFile } from "../git/tree_file.ts";
import { normalisePath } from "../gate/base_spec.ts";

/**
 * The spec's path from the repository's top level, as written: relative to the
 * working directory's place in the repository (git says where that is), or an
 * absolute path below the top level. No link is resolved.
 * @param git The git seam.
 * @param top The repository's top level.
 * @param cwd The working directory.
 * @param specPath The path as the user gave it.
 * @returns The normalised path from the top level, `/`-separated.
 * @throws {InputError} Exit 2 when the path lies outside the repository.
 */
export async function specPathFromTop(
  git: Git,
  top: string,
  cwd: string,
  specPath: string,
): Promise<string> {
  const slashed = specPath.replaceAll("\\", "/");
  let fromTop: string | undefined;
  if (isAbsolute(specPath)) {
    const rel = relative(top, specPath).replaceAll("\\", "/");
    fromTop = rel.startsWith("../") || rel === ".." || isAbsolute(rel)
      ? undefined
      : normalisePath(rel);
  } else {
    const prefix = await git.prefix(cwd);
    fromTop = normalisePath(`${prefix}${slashed}`);
  }
  if (fromTop === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: the spec is outside the repository "${top}"`,
    );
  }
  return fromTop;
}

/**
 * Refuses a spec path that is, or passes through, a symbolic link or a
 * submodule in the work tree (checked with `lstat`, component by component from
 * the top level; a component that does not exist ends the check).
 * @param top The repository's top level.
 * @param path The spec's path from the top level.
 * @throws {InputError} Exit 2 naming the link or submodule.
 */
export function refuseLinkedWorkTreePath(top: string, path: string): void {
  const segments = path.split("/");
  for (let i = 1; i <= segments.length; i++) {
    const at = segments.slice(0, i).join("/");
    let kind: "link" | "submodule" | undefined;
    try {
      const stat = lstatSync(join(top, at));
      if (stat.isSymbolicLink()) kind = "link";
      else if (stat.isDirectory() && exists(join(top, at, ".git"))) {
        kind = "submodule";
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return;
      throw new InputError(
        `cannot check the spec path "${path}": ${(error as Error).message}`,
      );
    }
    if (kind) throw linkedPath(path, at, kind, "the work tree");
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The error for a spec path that meets a link or a submodule.
 * @param path The spec's path from the top level.
 * @param at The link or submodule: the path itself or a directory on it.
 * @param kind Which.
 * @param where `the work tree`, `HEAD`, or a commit's short sha.
 * @returns The input error (exit 2).
 * @example
 * ```ts
 * linkedPath("waves.jsonc", "waves.jsonc", "link", "HEAD").message;
 * // '"waves.jsonc" is a symbolic link in HEAD; a spec must be a regular file'
 * ```
 */
export function linkedPath(
  path: string,
  at: string,
  kind: "link" | "submodule",
  where: string,
): InputError {
  const what = kind === "link" ? "a symbolic link" : "a submodule";
  const subject = at === path
    ? `"${path}"`
    : `"${at}", on the path of "${path}",`;
  return new InputError(
    `${subject} is ${what} in ${where}; a spec must be a regular file`,
    [
      "the spec is read in git at HEAD and at base, never through links, so a change cannot point it at another file",
    ],
  );
}

/**
 * Throws for a tree entry that is a link or submodule; passes files and absence.
 * @param found What the tree holds at the spec path.
 * @param path The spec's path from the top level.
 * @param where `HEAD`, or a commit's short sha.
 * @returns `found`, when it is a file or absent.
 * @throws {InputError} Exit 2 for a link or submodule on the path.
 */
export function refuseLinkedTreePath(
  found: TreeFile,
  path: string,
  where: string,
): Exclude<TreeFile, { status: "link" | "submodule" }> {
  if (found.status === "link" || found.status === "submodule") {
    throw linkedPath(path, found.at, found.status, where);
  }
  return found as Exclude<TreeFile, { status: "link" | "submodule" }>;
}

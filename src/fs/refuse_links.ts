/**
 * Refuses symbolic links on the way to chant-wave's own files (SPEC.md §14): a
 * link inside the ledger or `.chant/waves` could send records outside them, or
 * make a record that lives elsewhere count. Each existing path component below a
 * trusted root is checked with `lstat`; links are refused, never followed.
 * @module
 */

import { lstatSync } from "node:fs";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import { InputError } from "../errors.ts";

/**
 * Checks that no existing component of `root/segments…` is a symbolic link.
 * Components that do not exist yet are fine (they will be made as directories);
 * one that cannot be checked (`EACCES`, `ELOOP`, …) ends the check with an error,
 * never as if it were absent.
 * @param root A trusted directory; it is not itself checked.
 * @param segments The components below it, in order.
 * @param what What the path is, for the message (`the ledger`, `.chant/waves`).
 * @throws {InputError} Exit 2 naming the first link found, or the component
 *   that could not be checked.
 */
export function refuseLinks(
  root: string,
  segments: readonly string[],
  what: string,
): void {
  let path = root;
  for (const segment of segments) {
    path = join(path, segment);
    let isLink: boolean;
    try {
      isLink = lstatSync(path).isSymbolicLink();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return;
      throw new InputError(
        `cannot check "${path}" inside ${what} for a symbolic link: ${
          (error as Error).message
        }`,
      );
    }
    if (isLink) {
      throw new InputError(
        `"${path}" is a symbolic link inside ${what}; chant-wave refuses to follow it`,
        ["remove the link; records and decisions live in real directories"],
      );
    }
  }
}

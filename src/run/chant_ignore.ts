/**
 * Keeps `.chant/` out of git without asking the user: the first `run` in a
 * working directory makes `.chant/` and writes `.chant/.gitignore` holding
 * `*`, so git ignores everything chant-wave keeps there (plans, locks, a
 * directory ledger, recorded plans) and the directory itself. A `.gitignore`
 * already there, whoever wrote it, is left as it is; a `.chant` that is a
 * symbolic link is refused (SPEC.md §14). What git ignores decides nothing:
 * a directory ledger holding committed files is refused on its own.
 * @module
 */

import { link, mkdir, rm } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import { refuseLinks } from "../fs/refuse_links.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { randomHex } from "../gate/random_hex.ts";

/** What `.chant/.gitignore` holds: everything below `.chant/` is ignored. */
export const CHANT_IGNORE =
  "# written by chant-wave: nothing here is committed\n*\n";

/**
 * Makes `cwd/.chant/` when missing and writes its `.gitignore` when missing,
 * never over a file or through a link that is there.
 * @param cwd The working directory of the run.
 * @throws {InputError} Exit 2 when `.chant` is a symbolic link.
 * @example
 * ```ts
 * await keepChantIgnored(Deno.cwd()); // .chant/.gitignore holds "*"
 * ```
 */
export async function keepChantIgnored(cwd: string): Promise<void> {
  refuseLinks(cwd, [".chant"], ".chant/");
  await mkdir(join(cwd, ".chant"), { recursive: true });
  refuseLinks(cwd, [".chant"], ".chant/");
  const path = join(cwd, ".chant", ".gitignore");
  const draft = `${path}.${randomHex(8)}.tmp`;
  await writeFileAtomic(draft, CHANT_IGNORE);
  try {
    // A link is made whole or not at all, and never over what is there (a
    // file, or a link even a dangling one).
    await link(draft, path).catch((error) => {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    });
  } finally {
    await rm(draft, { force: true });
  }
}

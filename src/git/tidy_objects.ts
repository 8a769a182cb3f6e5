/**
 * A repository's object store kept tidy where nothing else tidies it: fetches
 * and `fast-import` leave a small pack or a few loose objects each time, and
 * with automatic `gc` off (every fetch runs `--no-auto-gc`) a clone that lives
 * for hundreds of commands ends with hundreds of packs, every object lookup
 * asking each of them. The clutter is counted without running git (the pack
 * files, and the loose objects of one of the 256 fan-out folders times 256, as
 * `git gc --auto` estimates them); past a threshold one `git repack -d -l
 * --geometric=2` rolls the small packs and the loose objects into one pack,
 * leaving a large pack alone (so the cost follows the clutter, not the
 * repository's size). A repack only ever copies objects and then removes the
 * packs and loose objects it copied: nothing, reachable or not, is lost, and
 * no ref moves. It knows nothing of ledgers, and nothing of who else writes
 * the repository (its caller holds the lock that keeps its own writers out).
 * @module
 */

import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Git } from "./git.ts";

/** Packs past which the store is tidied (git's own `gc.autoPackLimit` is 50). */
export const PACK_LIMIT = 16;

/**
 * Estimated loose objects past which the store is tidied (git's own
 * `gc.auto` is 6,700): more than 2 in the sampled fan-out folder.
 */
export const LOOSE_LIMIT = 512;

/** How cluttered an object store is. */
export interface Clutter {
  /** The `pack-*.pack` files of `objects/pack`. */
  packs: number;
  /** The loose objects, estimated from one fan-out folder (as git does). */
  loose: number;
}

/** The fan-out folder sampled, as `git gc --auto` samples it. */
const SAMPLE = "17";

/** The names in a folder, none when it is missing or unreadable. */
async function names(dir: string): Promise<string[]> {
  return await readdir(dir).catch(() => []);
}

/**
 * Counts the clutter of the object store of a git folder (two folder reads).
 * @param gitDir The repository's common git folder (`.git`).
 * @returns The packs and the estimated loose objects.
 */
export async function countClutter(gitDir: string): Promise<Clutter> {
  const objects = join(gitDir, "objects");
  const [packs, sample] = await Promise.all([
    names(join(objects, "pack")),
    names(join(objects, SAMPLE)),
  ]);
  return {
    packs: packs.filter((n) => /^pack-[0-9a-f]+\.pack$/.test(n)).length,
    loose: sample.filter((n) => /^[0-9a-f]{38,62}$/.test(n)).length * 256,
  };
}

/** Whether a store is past {@linkcode PACK_LIMIT} or {@linkcode LOOSE_LIMIT}. */
export function cluttered(clutter: Clutter): boolean {
  return clutter.packs > PACK_LIMIT || clutter.loose > LOOSE_LIMIT;
}

/**
 * Tidies the object store of a git folder when it is cluttered: one
 * `git repack -d -l --geometric=2 -q` (git 2.32 or later). Best effort: a
 * repack that fails leaves the store as it was (the next call tries again).
 * @param git The git seam.
 * @param gitDir The repository's common git folder.
 * @returns The clutter found, and whether a repack ran and succeeded.
 */
export async function tidyObjects(
  git: Git,
  gitDir: string,
): Promise<{ found: Clutter; repacked: boolean }> {
  const found = await countClutter(gitDir);
  if (!cluttered(found)) return { found, repacked: false };
  const out = await git.exec(
    ["repack", "-d", "-l", "--geometric=2", "-q"],
    { cwd: gitDir },
  ).catch(() => undefined);
  return { found, repacked: out?.exitCode === 0 };
}

/**
 * A repository's object store kept tidy where nothing else tidies it: fetches
 * and `fast-import` leave a small pack or a few loose objects each time, and
 * with automatic `gc` off (every fetch runs `--no-auto-gc`) a clone that lives
 * for hundreds of commands ends with hundreds of packs, every object lookup
 * asking each of them. The clutter is counted without running git (the small
 * pack files, and the loose objects of one of the 256 fan-out folders times
 * 256, as `git gc --auto` estimates them); past a threshold one `git repack -d
 * -l --geometric=2` rolls the small packs and the loose objects into one pack,
 * leaving a large pack alone (so the cost follows the clutter, not the
 * repository's size). Only packs under {@linkcode SMALL_PACK_BYTES} count: a
 * geometric repack may leave a pack for every doubling of size, and a large
 * repository's dozen of those is not clutter to repack again at every call.
 * A repack only ever copies objects and then removes the packs and loose
 * objects it copied: nothing, reachable or not, is lost, and no ref moves. It knows nothing of ledgers, and nothing of who else writes
 * the repository (its caller holds the lock that keeps its own writers out).
 * @module
 */

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Git } from "./git.ts";

/** Small packs past which the store is tidied (git's own `gc.autoPackLimit` is 50). */
export const PACK_LIMIT = 16;

/** A pack file smaller than this (2 MiB) counts as clutter. */
export const SMALL_PACK_BYTES = 2 * 1024 * 1024;

/**
 * Estimated loose objects past which the store is tidied (git's own
 * `gc.auto` is 6,700): more than 2 in the sampled fan-out folder.
 */
export const LOOSE_LIMIT = 512;

/** How cluttered an object store is. */
export interface Clutter {
  /** The `pack-*.pack` files of `objects/pack` under {@linkcode SMALL_PACK_BYTES}. */
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

/** Whether a file is smaller than {@linkcode SMALL_PACK_BYTES} (a missing one is not). */
async function small(path: string): Promise<boolean> {
  const found = await stat(path).catch(() => undefined);
  return found !== undefined && found.size < SMALL_PACK_BYTES;
}

/**
 * Counts the clutter of the object store of a git folder (two folder reads
 * and a look at each pack's size).
 * @param gitDir The repository's common git folder (`.git`).
 * @returns The small packs and the estimated loose objects.
 */
export async function countClutter(gitDir: string): Promise<Clutter> {
  const objects = join(gitDir, "objects");
  const [packs, sample] = await Promise.all([
    names(join(objects, "pack")),
    names(join(objects, SAMPLE)),
  ]);
  const sizes = await Promise.all(
    packs.filter((n) => /^pack-[0-9a-f]+\.pack$/.test(n))
      .map((n) => small(join(objects, "pack", n))),
  );
  return {
    packs: sizes.filter(Boolean).length,
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

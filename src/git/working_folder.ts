/**
 * The folder a command starts in, as the shell named it (`PWD`): reached
 * through a symbolic link that a repository tracks, it is the change's choice.
 * `cd infra && chant-wave run …` with a committed `infra -> ../elsewhere`
 * would make another repository on the runner (its spec, its base, its ledger)
 * the one chant-wave works in, since the kernel hands over the folder the link
 * leads to. A link the runner made (an untracked one, or one outside every
 * work tree) stands. The physical folder alone shows nothing, so only a `PWD`
 * that names the same folder is judged.
 * @module
 */

import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { InputError } from "../errors.ts";
import { linksOnTheWay } from "./repository_settings.ts";

/** The nearest folder at or above `dir` holding `.git`, or `undefined`. */
function workTreeAround(dir: string): string | undefined {
  for (let at = dir;; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Refuses a working folder reached through a link some repository tracks
 * (exit 2).
 * @param pwd The `PWD` variable, the folder as the shell named it.
 * @param cwd The process's working folder.
 * @param tracked Whether the repository whose work tree is `top` tracks
 * `path` (relative to `top`).
 * @throws {InputError} Naming the link.
 */
export async function refuseLinkedWorkingFolder(
  pwd: string | undefined,
  cwd: string,
  tracked: (top: string, path: string) => Promise<boolean>,
): Promise<void> {
  // The usual case: the shell named the folder by its own path.
  if (pwd === undefined || !isAbsolute(pwd) || pwd === cwd) return;
  const [named, real] = await Promise.all([
    realpath(pwd).catch(() => undefined),
    realpath(cwd).catch(() => undefined),
  ]);
  if (named === undefined || named !== real || pwd === real) return;
  for (const link of await linksOnTheWay(pwd)) {
    const parent = await realpath(dirname(link)).catch(() => undefined);
    if (parent === undefined) continue;
    const top = workTreeAround(parent);
    if (top === undefined) continue;
    const path = relative(top, join(parent, basename(link)));
    if (!await tracked(top, path)) continue;
    throw new InputError(
      `chant-wave runs in "${pwd}", reached through "${link}", a symbolic ` +
        `link the repository "${top}" tracks: the change chooses where it ` +
        `leads (another repository, its spec and its ledger); run chant-wave ` +
        `from a folder of the checkout that is no link`,
    );
  }
}

/**
 * Where the `git` executable is, found once when chant-wave starts: in the
 * first absolute directory of `PATH` that holds an executable `git` (`createGit`
 * has left out the directories inside the checkout, `fs/program_path.ts`).
 * Every git chant-wave runs later is that file, so a `git` the change's own
 * code puts in a directory of `PATH` it can write to (a relative entry, the
 * work tree) runs for nothing of chant-wave's. An edge over the file system.
 * @module
 */

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/**
 * The absolute path of `git` on `PATH`, or `git` when none is found (then
 * starting it fails as before, saying so).
 * @param path The `PATH` variable.
 * @returns The path to start git by.
 * @example
 * ```ts
 * gitOnPath("/usr/local/bin:/usr/bin"); // "/usr/bin/git"
 * ```
 */
export function gitOnPath(path: string | undefined): string {
  for (const dir of (path ?? "").split(delimiter)) {
    // A relative entry names a directory of wherever git is started from.
    if (!isAbsolute(dir)) continue;
    const file = join(dir, "git");
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      continue;
    }
  }
  return "git";
}

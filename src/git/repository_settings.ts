/**
 * A repository's own git settings (`.git/config`, a worktree's
 * `config.worktree`, and what they include) as
 * `git config --list --includes --show-origin -z` lists them in chant-wave's
 * isolated environment (no global or system settings), each with the file it
 * comes from, and the rule that none may come from a file of
 * the work tree outside its `.git` folder: such a file is the change's (an
 * include of `../.gitconfig`, say), so the change's files alone would set what
 * chant-wave's git does: the ledger's remote (`url.*.insteadOf`), a program
 * git runs (`core.fsmonitor`, `core.hooksPath`). Global and system settings
 * never reach chant-wave's git (`git_env.ts`).
 * @module
 */

import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { InputError } from "../errors.ts";

/** The arguments that list the settings. */
export const SETTINGS_ARGS: readonly string[] = [
  "config",
  "--list",
  "--includes",
  "--show-origin",
  "-z",
];

/** One setting: where it comes from (`file:<path>`), its key and its value. */
export interface Setting {
  origin: string;
  key: string;
  value: string;
}

/**
 * The settings of a listing: each is its origin, then its key and value (a
 * key without a value has none).
 * @param text What `git <SETTINGS_ARGS>` printed.
 * @returns The settings, in order.
 * @example
 * ```ts
 * parseSettings("file:.git/config\0remote.origin.url\n/r.git\0");
 * // [{ origin: "file:.git/config", key: "remote.origin.url", value: "/r.git" }]
 * ```
 */
export function parseSettings(text: string): Setting[] {
  const parts = text.split("\0");
  const settings: Setting[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const entry = parts[i + 1];
    const end = entry.indexOf("\n");
    settings.push({
      origin: parts[i],
      key: end < 0 ? entry : entry.slice(0, end),
      value: end < 0 ? "" : entry.slice(end + 1),
    });
  }
  return settings;
}

/** Whether `path` is `folder` or lies below it. */
function within(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === "" ||
    (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/**
 * Refuses settings that come from a file of the work tree outside its `.git`
 * folder, followed through links as git follows them (exit 2).
 * @param text The listing.
 * @param top The work tree's top, where git names files from.
 * @throws {InputError} Naming the file.
 */
export async function refuseCheckoutSettings(
  text: string,
  top: string,
): Promise<void> {
  const realTop = await realpath(top).catch(() => top);
  const gitFolder = resolve(realTop, ".git");
  const origins = new Set(parseSettings(text).map((s) => s.origin));
  for (const origin of origins) {
    if (!origin.startsWith("file:")) continue;
    const path = resolve(top, origin.slice("file:".length));
    const real = await realpath(path).catch(() => path);
    if (!within(real, realTop) || within(real, gitFolder)) continue;
    throw new InputError(
      `the repository's git settings come from "${relative(realTop, real)}", ` +
        `a file of the checkout (its .git/config includes it), so the ` +
        `change's files would set what chant-wave's git does (the ledger's ` +
        `remote, a program git runs); include no file of the work tree in ` +
        `the repository's settings`,
    );
  }
}

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

import { lstat, readlink, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
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

/** Where a repository's files are: its work trees and its git folders. */
export interface RepositoryLayout {
  /** The work tree git runs in, where it names files from. */
  top: string;
  /** Every work tree of the repository (linked worktrees, a superproject's). */
  workTrees: readonly string[];
  /** Its git folders (the worktree's own and the common one). */
  gitFolders: readonly string[];
}

/** The most links followed on one path, as the kernel's own limit. */
const MOST_LINKS = 40;

/**
 * Every symbolic link met on the way to `path`, one hop at a time, as the
 * system follows them (a link in the middle is the link's own place, which
 * its owner decides, not only where the chain ends).
 * @param path An absolute path, `..` and `.` not yet resolved.
 * @returns The links' own paths, in order.
 */
export async function linksOnTheWay(path: string): Promise<string[]> {
  const links: string[] = [];
  let rest = path.split(sep).filter((part) => part !== "");
  let reached: string = sep;
  while (rest.length > 0 && links.length <= MOST_LINKS) {
    const part = rest.shift() as string;
    if (part === ".") continue;
    const next = part === ".." ? dirname(reached) : resolve(reached, part);
    const info = await lstat(next).catch(() => undefined);
    if (!info?.isSymbolicLink()) {
      reached = next;
      continue;
    }
    links.push(next);
    const target = await readlink(next).catch(() => "");
    rest = [
      ...(isAbsolute(target) ? target : `${reached}${sep}${target}`)
        .split(sep).filter((p) => p !== ""),
      ...rest,
    ];
    reached = sep;
  }
  return links;
}

/** `paths` and, where it differs, where each leads through links. */
async function bothWays(paths: readonly string[]): Promise<string[]> {
  const reals = await Promise.all(
    paths.map((path) => realpath(path).catch(() => path)),
  );
  return [...new Set([...paths, ...reals])];
}

/**
 * Whether `path`, inside `tree`, lies in a `.git` folder of it: a place git
 * never checks a file out to (it tracks no path with a `.git` part), so no
 * change's files can be there.
 */
function inDotGit(path: string, tree: string): boolean {
  return relative(tree, path).split(sep).includes(".git");
}

/**
 * Refuses a repository whose git folder lies in a work tree outside a `.git`
 * folder (exit 2): a folder of the change holding `HEAD`, `objects/`, `refs/`
 * and a `config` with `core.worktree = ..` is a repository git finds from
 * there, with the change's settings, refs and objects (the ledger's remote,
 * a program git runs, a copy of the ledger). Judged as git names the folder,
 * where it leads, and at every link met on the way.
 * @param gitFolders The repository's git folders, as git names them.
 * @param workTrees Every work tree of the repository, and of any repository
 * around it.
 * @throws {InputError} Naming the folder.
 */
export async function refuseCheckoutGitFolder(
  gitFolders: readonly string[],
  workTrees: readonly string[],
): Promise<void> {
  const trees = await bothWays(workTrees);
  for (const folder of gitFolders) {
    const paths = [
      ...await bothWays([resolve(folder)]),
      ...await linksOnTheWay(folder),
    ];
    for (const path of paths) {
      const tree = trees.find((t) => within(path, t));
      if (tree === undefined || inDotGit(path, tree)) continue;
      throw new InputError(
        `the repository git finds here is "${path}", a folder of the ` +
          `checkout "${tree}" outside its .git, so the change's files would ` +
          `be the repository chant-wave's git reads and writes (its ` +
          `settings, the ledger's remote, its refs); run chant-wave where git ` +
          `finds the clone's own .git`,
      );
    }
  }
}

/**
 * Refuses settings that come from a file of any work tree of the repository
 * outside its git folders, whether the path git names lies there or where it
 * leads through links does (exit 2).
 * @param text The listing.
 * @param layout The repository's work trees and git folders.
 * @throws {InputError} Naming the file.
 */
export async function refuseCheckoutSettings(
  text: string,
  layout: RepositoryLayout,
): Promise<void> {
  const workTrees = await bothWays([layout.top, ...layout.workTrees]);
  const gitFolders = await bothWays(layout.gitFolders);
  const settings = parseSettings(text);
  const files = new Set<string>();
  for (const { origin, key, value } of settings) {
    if (!origin.startsWith("file:")) continue;
    const file = origin.slice("file:".length);
    const from = isAbsolute(file) ? file : `${layout.top}${sep}${file}`;
    files.add(from);
    // An include names a file even before it exists (a command of the
    // change could write it later): judged the same.
    if (key === "include.path" || /^includeif\..*\.path$/.test(key)) {
      files.add(
        value.startsWith("~/")
          ? `${homedir()}${sep}${value.slice(2)}`
          : isAbsolute(value)
          ? value
          : `${dirname(from)}${sep}${value}`,
      );
    }
  }
  for (const file of files) {
    const named = resolve(file);
    const paths = [
      ...await bothWays([named]),
      ...await linksOnTheWay(file),
    ];
    for (const path of paths) {
      const tree = workTrees.find((folder) => within(path, folder));
      if (
        tree === undefined || gitFolders.some((folder) => within(path, folder))
      ) continue;
      throw new InputError(
        `the repository's git settings come from "${
          relative(layout.top, path)
        }", a file of the checkout (its .git/config includes it), so the ` +
          `change's files would set what chant-wave's git does (the ledger's ` +
          `remote, a program git runs); include no file of a work tree in ` +
          `the repository's settings`,
      );
    }
  }
}

/**
 * The git ledger clone's own settings (`.git/config` and what it includes):
 * read once when the ledger opens, with the file each setting comes from; the
 * remotes they define; the refusal of settings that come from a file of the
 * checkout (the change's files would then choose where the ledger is read and
 * written, SPEC.md §4.12); and the check, before every later fetch and push,
 * that they did not change (a remote's URL or a `url.*.insteadOf` the
 * change's code wrote would send the job's claims to a ledger of its
 * choosing). Private to the git ledger.
 * @module
 */

import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { InputError } from "../../errors.ts";
import type { Git } from "../../git/git.ts";
import { GitError } from "../../git/git_error.ts";

/** One setting: the file it comes from (`file:<path>`), its key and its value. */
export interface Setting {
  origin: string;
  key: string;
  value: string;
}

const ARGS = [
  "config",
  "--list",
  "--local",
  "--includes",
  "--show-origin",
  "-z",
];

/**
 * Reads the clone's own settings (`.git/config` and what it includes) as
 * `git config --list --local --includes --show-origin -z` prints them.
 * @param git The git seam.
 * @param cwd A directory inside the clone.
 * @returns The settings' text.
 * @throws {InputError} When `cwd` is not in a git repository.
 * @throws {GitError} When git fails otherwise.
 */
export async function readSettings(git: Git, cwd: string): Promise<string> {
  const out = await git.exec(ARGS, { cwd });
  if (out.exitCode === 0) return new TextDecoder().decode(out.stdout);
  if (
    /not a git repository|only be used inside a git repository/.test(out.stderr)
  ) {
    throw new InputError(
      `cannot open the git ledger: "${cwd}" is not in a git repository; ` +
        `run chant-wave in the checkout, or use a directory ledger`,
    );
  }
  throw new GitError(ARGS, out.exitCode, out.stderr);
}

/**
 * The settings of a listing {@linkcode readSettings} read: each is its
 * origin, then its key and value (a key without a value has none).
 * @param text The listing.
 * @returns The settings, in order.
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

/**
 * The remotes the settings define (`remote.<name>.<key>`), in order.
 * @param settings The settings.
 * @returns Their names.
 */
export function remotesIn(settings: readonly Setting[]): string[] {
  const names = new Set<string>();
  for (const { key } of settings) {
    const last = key.lastIndexOf(".");
    if (key.startsWith("remote.") && last > "remote.".length) {
      names.add(key.slice("remote.".length, last));
    }
  }
  return [...names];
}

/** Whether `path` is `folder` or lies below it. */
function within(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (!rest.startsWith(`..${sep}`) && rest !== ".." &&
    !isAbsolute(rest));
}

/**
 * Reads the clone's settings when the ledger opens, and refuses them (exit 2)
 * when one comes from a file of the checkout outside its `.git` folder: an
 * include of a repository file (`include.path = ../.gitconfig`) lets the
 * change's files, which no one approved, point the ledger's remote at a copy
 * the change brings along. Paths are followed through links, as git follows
 * them.
 * @param git The git seam.
 * @param cwd A directory inside the clone.
 * @returns The settings' text, the snapshot later fetches and pushes compare.
 * @throws {InputError} When a setting comes from a file of the checkout, or
 * `cwd` is not in a git repository.
 */
export async function openSettings(git: Git, cwd: string): Promise<string> {
  const text = await readSettings(git, cwd);
  const top = await git.topLevel(cwd);
  if (top === undefined) return text;
  const realTop = await realpath(top).catch(() => top);
  const gitFolder = resolve(realTop, ".git");
  const origins = new Set(parseSettings(text).map((s) => s.origin));
  for (const origin of origins) {
    if (!origin.startsWith("file:")) continue;
    // git names a file from the top of the work tree, where it runs.
    const path = resolve(top, origin.slice("file:".length));
    const real = await realpath(path).catch(() => path);
    if (!within(real, realTop) || within(real, gitFolder)) continue;
    throw new InputError(
      `cannot open the git ledger: the clone's git settings come from ` +
        `"${relative(realTop, real)}", a file of the checkout (included by ` +
        `its .git/config), so the change's files could choose where the ` +
        `ledger is read and written; include no file of the work tree in ` +
        `the clone's settings`,
    );
  }
  return text;
}

/** A ledger's clone and the settings it was opened with. */
export interface SettingsAt {
  git: Git;
  cwd: string;
  /** The settings when the ledger was opened (absent: not opened, nothing to check). */
  settings?: string;
  /** The remote's name, for the message. */
  remote?: string;
}

/**
 * Refuses to go on when the clone's settings changed since the ledger was
 * opened (see the module).
 * @param at The clone and its settings at open.
 * @param doing What was about to happen (`push the ledger branch chant/ledger`).
 * @throws {InputError} Exit 2 when they changed.
 */
export async function checkSettings(
  at: SettingsAt,
  doing: string,
): Promise<void> {
  // Nothing but chant-wave ran in the clone since it was opened.
  if (at.settings === undefined || !at.git.commandsRan()) return;
  if (await readSettings(at.git, at.cwd) === at.settings) return;
  throw new InputError(
    `cannot ${doing}: the clone's git settings (.git/config: a remote's URL, ` +
      `url.*.insteadOf, a transport setting) changed since this job opened ` +
      `the ledger, so the branch reached could be another than the one of ` +
      `"${at.remote}"; a command of the change may not send the job's ledger ` +
      `writes elsewhere: nothing more is recorded or applied`,
  );
}

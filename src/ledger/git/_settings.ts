/**
 * The git ledger clone's own settings (`.git/config` and what it includes):
 * read once when the ledger opens (after the clone's work tree was found,
 * which refuses settings that come from a file of the checkout,
 * `src/git/repository_settings.ts`); the remotes they define; and the check,
 * before every later fetch and push, that they did not change (a remote's URL
 * or a `url.*.insteadOf` the change's code wrote would send the job's claims
 * to a ledger of its choosing, SPEC.md §4.12). Private to the git ledger.
 * @module
 */

import { lstat, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { dirname, resolve } from "node:path";
import { InputError } from "../../errors.ts";
import type { Git } from "../../git/git.ts";
import { GitError } from "../../git/git_error.ts";
import {
  parseSettings,
  refuseCheckoutGitFolder,
  type Setting,
  SETTINGS_ARGS,
} from "../../git/repository_settings.ts";

/**
 * Reads the clone's own settings (`.git/config` and what it includes) as
 * `git config --list --includes --show-origin -z` prints them.
 * @param git The git seam.
 * @param cwd A directory inside the clone.
 * @returns The settings' text.
 * (Outside any repository git lists nothing and succeeds: `openSettings`
 * refuses that case first.)
 * @throws {GitError} When git fails.
 */
export async function readSettings(git: Git, cwd: string): Promise<string> {
  const out = await git.exec(SETTINGS_ARGS, { cwd });
  if (out.exitCode === 0) return new TextDecoder().decode(out.stdout);
  throw new GitError(SETTINGS_ARGS, out.exitCode, out.stderr);
}

/** The one line for a ledger opened outside any repository. */
function notRepository(cwd: string): InputError {
  return new InputError(
    `cannot open the git ledger: "${cwd}" is not in a git repository; ` +
      `run chant-wave in the checkout, or use a directory ledger`,
  );
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

/**
 * Reads the clone's settings when the ledger opens. Where the clone's layout
 * is not git's plain one, finding its work tree has listed them and refused
 * those that come from a file of the checkout (`repository_settings.ts`): an
 * include of a repository file would let the change's files, which no one
 * approved, point the ledger's remote at a copy they bring along.
 * @param git The git seam.
 * @param cwd A directory inside the clone.
 * @returns The settings' text, and the snapshot later fetches and pushes
 * compare.
 * @throws {InputError} When a setting comes from a file of the checkout, or
 * `cwd` is not in a git repository.
 */
export async function openSettings(
  git: Git,
  cwd: string,
): Promise<{ text: string; snapshot: string }> {
  if (await git.topLevel(cwd) === undefined) {
    // No work tree: a bare clone, or no repository at all.
    const bare = await git.exec(["rev-parse", "--absolute-git-dir"], { cwd });
    if (bare.exitCode !== 0) throw notRepository(cwd);
    // A bare clone inside another's work tree (outside its .git) is a folder
    // of that checkout: the change's files would be the ledger's clone.
    const gitDir = new TextDecoder().decode(bare.stdout).trim();
    const around = await git.topLevel(dirname(gitDir));
    if (around !== undefined) await refuseCheckoutGitFolder([gitDir], [around]);
  }
  const text = await readSettings(git, cwd);
  return { text, snapshot: await snapshotOf(git, cwd, text) };
}

/** A file's kind, identity, size, time and mode, or `-` when it is absent. */
function stateOf(info: Stats | undefined): string {
  return info === undefined
    ? "-"
    : `${info.mode}:${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

/**
 * The snapshot later fetches and pushes compare: the settings' text and the
 * state of every file they come from (as named, and where it leads). A file
 * swapped in place, or a named pipe that answers each reader of it its own
 * text (one for the check, another for the push), changes it; a setting read
 * from anything but a regular file is refused.
 */
async function snapshotOf(
  git: Git,
  cwd: string,
  text: string,
): Promise<string> {
  // git names the files from the top of the work tree (a bare clone's folder).
  const base = await git.topLevel(cwd) ?? cwd;
  const origins = new Set(parseSettings(text).map((s) => s.origin));
  const states: string[] = [];
  for (const origin of origins) {
    if (!origin.startsWith("file:")) continue;
    const path = resolve(base, origin.slice("file:".length));
    const [named, target] = await Promise.all([
      lstat(path).catch(() => undefined),
      stat(path).catch(() => undefined),
    ]);
    if (target !== undefined && !target.isFile()) {
      throw new InputError(
        `cannot use the git ledger: the clone's git settings come from ` +
          `"${path}", which is not a regular file (a pipe or a device can ` +
          `answer each reader differently): nothing more is recorded or applied`,
      );
    }
    states.push(`${path} ${stateOf(named)} ${stateOf(target)}`);
  }
  return `${text}\n${states.join("\n")}`;
}

/** A ledger's clone and the settings it was opened with. */
export interface SettingsAt {
  git: Git;
  cwd: string;
  /** The settings' snapshot when the ledger was opened (absent: not opened, nothing to check). */
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
  const text = await readSettings(at.git, at.cwd);
  if (await snapshotOf(at.git, at.cwd, text) === at.settings) return;
  throw new InputError(
    `cannot ${doing}: the clone's git settings (.git/config: a remote's URL, ` +
      `url.*.insteadOf, a transport setting) changed since this job opened ` +
      `the ledger, so the branch reached could be another than the one of ` +
      `"${at.remote}"; a command of the change may not send the job's ledger ` +
      `writes elsewhere: nothing more is recorded or applied`,
  );
}

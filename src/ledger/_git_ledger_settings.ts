/**
 * The clone's git settings, kept as they were when the git ledger was opened
 * (before the change's first command) and checked before every fetch and push
 * after a command of the change ran (SPEC.md §4.12): its code runs in the clone, and a
 * remote's URL, a `url.*.insteadOf` or a transport setting it wrote would send
 * the job's claims and outcomes (what spends an approval) to a ledger of its
 * choosing, and read back what it likes. Global and system settings never
 * reach chant-wave's git (`git_env.ts`). Private to the git ledger.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { GitError } from "../git/git_error.ts";

const ARGS = ["config", "--list", "--local", "--includes", "-z"];

/**
 * Reads the clone's own settings (`.git/config` and what it includes) as
 * `git config --list --local --includes -z` prints them.
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

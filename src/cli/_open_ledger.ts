/**
 * Opens the ledger a command names (`--ledger L`, else `CHANT_WAVE_LEDGER`, else
 * `.chant/ledger`): a directory, or the git-backed ledger (`git`, `git:<remote>`)
 * on the branch `chant/ledger` of the checkout the command runs in.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
// @ts-types="../../types/std/path.d.ts"
import { isAbsolute, resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { DEFAULT_LEDGER_DIR, dirLedger } from "../ledger/dir_ledger.ts";
import { gitLedger, REMOTE_NAME } from "../ledger/git_ledger.ts";
import { maskCredentials } from "../console/mask_credentials.ts";
import { refuseLinks } from "../fs/refuse_links.ts";
import type { LedgerStore } from "../ledger/ledger_store.ts";
import type { CliIo } from "./io.ts";

/**
 * Opens the ledger for a command. `git` shares the branch through the remote
 * `origin` (or keeps it local when the repository has no remote); `git:<remote>`
 * names the remote. Anything else is a directory, relative to the working
 * directory. No record is read or written until the store is used; a directory
 * ledger is first checked (SPEC.md §14): no symbolic link on the way to it, and no
 * file in it committed to the repository, since a change could commit a forged
 * approval there.
 * @param flag The `--ledger` value, if given.
 * @param io The edges (environment, working directory, git, clock, log).
 * @returns The store.
 * @throws {InputError} For `git:` without a remote name or with an invalid one,
 *   and for a directory ledger reached through a link or holding committed files.
 */
export async function openLedger(
  flag: string | undefined,
  io: Pick<CliIo, "env" | "cwd" | "git" | "clock" | "stderr">,
): Promise<LedgerStore> {
  const where = flag ?? io.env.CHANT_WAVE_LEDGER ?? DEFAULT_LEDGER_DIR;
  if (where === "git" || where.startsWith("git:")) {
    const remote = where === "git" ? undefined : where.slice("git:".length);
    if (remote === "") {
      throw new InputError(
        `ledger "${where}": name the remote after "git:", e.g. "git:origin"`,
      );
    }
    if (remote !== undefined && !REMOTE_NAME.test(remote)) {
      throw new InputError(
        `ledger "${
          maskCredentials(where)
        }": not a valid remote name; name a remote ("git:origin"), not a URL`,
      );
    }
    return gitLedger({
      git: io.git,
      cwd: io.cwd,
      ...(remote === undefined ? {} : { remote }),
      clock: io.clock,
      log: lineLog(io.stderr),
    });
  }
  const root = resolve(io.cwd, where);
  if (!isAbsolute(where)) {
    refuseLinks(io.cwd, where.split(/[\\/]/), "the ledger");
  }
  await refuseCommitted(io, root);
  return dirLedger(root, { clock: io.clock });
}

/** Refuses a directory ledger that holds files the repository tracks. */
async function refuseCommitted(
  io: Pick<CliIo, "cwd" | "git">,
  root: string,
): Promise<void> {
  const out = await io.git.exec(["ls-files", "-z", "--", root], {
    cwd: io.cwd,
  }).catch(() => undefined);
  if (out?.exitCode !== 0 || out.stdout.length === 0) return;
  const first = new TextDecoder().decode(out.stdout).split("\0")[0];
  throw new InputError(
    `the ledger directory "${root}" holds files committed to the repository (${first}); a change could forge approvals there`,
    [
      "keep .chant/ out of the repository (.gitignore), or share approvals with --ledger git",
    ],
  );
}

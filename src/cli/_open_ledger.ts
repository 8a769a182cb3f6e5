/**
 * Opens the ledger a command names (`--ledger L`, else `CHANT_WAVE_LEDGER`, else
 * `.chant/ledger`): a directory, or the git-backed ledger (`git`, `git:<remote>`)
 * on the branch `chant/ledger` of the checkout the command runs in.
 * @module
 */

import { lineLog } from "../console/line_log.ts";
import { lstat, realpath } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { dirname, isAbsolute, join, resolve } from "@std/path";
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
  const from = where === DEFAULT_LEDGER_DIR && flag === undefined
    ? await defaultLedgerHome(io)
    : io.cwd;
  const root = resolve(from, where);
  if (!isAbsolute(where)) {
    refuseLinks(from, where.split(/[\\/]/), "the ledger");
  }
  await refuseCommitted(io, root);
  return dirLedger(root, { clock: io.clock });
}

/**
 * The `--ledger` argument that reaches the same ledger as this command, for the
 * commands chant-wave prints (`then approve: … --ledger git`): the flag, else
 * `CHANT_WAVE_LEDGER`; nothing for the default directory ledger.
 * @param flag The `--ledger` value, if given.
 * @param env The environment.
 * @returns The argument, or `undefined` for the default.
 * @example
 * ```ts
 * ledgerArgument(undefined, { CHANT_WAVE_LEDGER: "git" }); // "git"
 * ```
 */
export function ledgerArgument(
  flag: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  const where = flag ?? env.CHANT_WAVE_LEDGER;
  return where === undefined || where === DEFAULT_LEDGER_DIR
    ? undefined
    : where;
}

/**
 * Where the default `.chant/ledger` is: the nearest directory from the working
 * directory up to the repository's top level that has one, so `approve` run in
 * a subdirectory finds the ledger `run` wrote; else the working directory.
 */
async function defaultLedgerHome(
  io: Pick<CliIo, "cwd" | "git">,
): Promise<string> {
  const top = await io.git.topLevel(io.cwd).catch(() => undefined);
  if (top === undefined) return io.cwd;
  const realTop = await realpath(top).catch(() => top);
  let dir = await realpath(io.cwd).catch(() => io.cwd);
  for (;;) {
    const found = await lstat(join(dir, DEFAULT_LEDGER_DIR)).then(
      (stat) => stat.isDirectory(),
      () => false,
    );
    if (found) return dir;
    if (dir === realTop || dirname(dir) === dir) return io.cwd;
    dir = dirname(dir);
  }
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

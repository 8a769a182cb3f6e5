/**
 * Opens the ledger a command names (`--ledger L`, else `CHANT_WAVE_LEDGER`, else
 * `.chant/ledger`): a directory, or the git-backed ledger (`git`, `git:<remote>`)
 * on the branch `chant/ledger` of the checkout the command runs in.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { DEFAULT_LEDGER_DIR, dirLedger } from "../ledger/dir_ledger.ts";
import { gitLedger } from "../ledger/git_ledger.ts";
import type { LedgerStore } from "../ledger/ledger_store.ts";
import type { CliIo } from "./io.ts";

/**
 * Opens the ledger for a command. `git` shares the branch through the remote
 * `origin` (or keeps it local when the repository has no remote); `git:<remote>`
 * names the remote. Anything else is a directory, relative to the working
 * directory. Nothing is read or written until the store is used.
 * @param flag The `--ledger` value, if given.
 * @param io The edges (environment, working directory, git, clock, log).
 * @returns The store.
 * @throws {InputError} For `git:` without a remote name or with an invalid one.
 */
export function openLedger(
  flag: string | undefined,
  io: Pick<CliIo, "env" | "cwd" | "git" | "clock" | "stderr">,
): LedgerStore {
  const where = flag ?? io.env.CHANT_WAVE_LEDGER ?? DEFAULT_LEDGER_DIR;
  if (where === "git" || where.startsWith("git:")) {
    const remote = where === "git" ? undefined : where.slice("git:".length);
    if (remote === "") {
      throw new InputError(
        `ledger "${where}": name the remote after "git:", e.g. "git:origin"`,
      );
    }
    return gitLedger({
      git: io.git,
      cwd: io.cwd,
      ...(remote === undefined ? {} : { remote }),
      clock: io.clock,
      log: (line) => io.stderr.write(`${line}\n`),
    });
  }
  return dirLedger(resolve(io.cwd, where));
}

/**
 * Opens the ledger a command names (`--ledger L`, else `CHANT_WAVE_LEDGER`, else
 * `.chant/ledger`): a directory, or the git-backed ledger (`git`, `git:<remote>`).
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import { DEFAULT_LEDGER_DIR, dirLedger } from "../ledger/dir_ledger.ts";
import type { LedgerStore } from "../ledger/ledger_store.ts";
import type { CliIo } from "./io.ts";

/**
 * Opens the ledger for a command.
 * @param flag The `--ledger` value, if given.
 * @param io The edges (environment, working directory).
 * @returns The store.
 * @throws {InputError} For a ledger this version cannot open.
 */
export function openLedger(
  flag: string | undefined,
  io: Pick<CliIo, "env" | "cwd">,
): LedgerStore {
  const where = flag ?? io.env.CHANT_WAVE_LEDGER ?? DEFAULT_LEDGER_DIR;
  if (where === "git" || where.startsWith("git:")) {
    throw new InputError(
      `ledger "${where}": the git-backed ledger is not built yet in this version`,
      [
        "use a directory ledger (the default, .chant/ledger) for now",
      ],
    );
  }
  return dirLedger(resolve(io.cwd, where));
}

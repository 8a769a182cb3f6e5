/**
 * The commands chant-wave prints as the next step (decide again, approve), built
 * from the job's own flags so that they work as printed: the same spec, wave,
 * base and ledger. Pure.
 * @module
 */

import { shellLine } from "../shell_words.ts";
import type { RunJobInput } from "./job_input.ts";

/**
 * The command that runs this wave's deciding job again.
 * @param input The job (its spec file, wave, `--base` and ledger argument).
 * @returns `chant-wave run --spec F --wave K --decide [--base B] [--ledger L]`.
 * @example
 * ```ts
 * decideCommand({ specFile: "waves.jsonc", selection: { wave: { k: 2 } }, ledgerArg: "git" });
 * // "chant-wave run --spec waves.jsonc --wave 2 --decide --ledger git"
 * ```
 */
export function decideCommand(
  input: Pick<RunJobInput, "specFile" | "baseFlag" | "ledgerArg"> & {
    selection: { wave: { k: number } };
  },
): string {
  const words = [
    "chant-wave",
    "run",
    "--spec",
    input.specFile,
    "--wave",
    String(input.selection.wave.k),
    "--decide",
  ];
  if (input.baseFlag !== undefined) words.push("--base", input.baseFlag);
  if (input.ledgerArg !== undefined) words.push("--ledger", input.ledgerArg);
  return shellLine(words);
}

/**
 * The shape every command file exports, so `main` can dispatch, list and
 * explain them uniformly.
 * @module
 */

import type { CliIo } from "./io.ts";

/** One `chant-wave` command. */
export interface Command {
  /** The word that selects it. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The usage line(s), without the leading `usage: `. */
  usage: string;
  /** Further lines of `--help`: flags, examples. */
  help: string;
  /**
   * Runs the command.
   * @param argv The words after the command.
   * @param io The edges.
   * @returns The exit code.
   * @throws {InputError} On bad input (exit 2); other errors are bugs (exit 1).
   */
  run(argv: string[], io: CliIo): Promise<number>;
}

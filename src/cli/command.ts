/**
 * The shape every command file exports, so `main` can dispatch, list, explain
 * and complete them uniformly. A command's flags are one table; its usage, the
 * help's flag list, the parser and the completions are made from it.
 * @module
 */

import type { FlagTable } from "./_flags.ts";
import type { CliIo } from "./io.ts";

/** One `chant-wave` command. */
export interface Command {
  /** The word that selects it. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /**
   * Its usage forms, each after `chant-wave NAME`: positional words, `[`, `]`,
   * `|` and the flags as `--name`, which the usage shows with their values
   * from {@linkcode Command.flags}; a `\n` continues a form on the next line.
   */
  usage: readonly string[];
  /** The help's lines before the flag list: what it does. */
  about: string;
  /** The help's lines after the flag list, if any. */
  notes?: string;
  /**
   * Two to four real command lines for the EXAMPLES block of `--help`, each
   * `chant-wave …`, optionally followed by `  # what it does`.
   */
  examples: readonly string[];
  /** Its flags, in the order the help lists them. */
  flags: FlagTable;
  /** The words its first positional takes, offered by shell completion. */
  words?: readonly string[];
  /** Whether its other positionals are files (shell completion offers files). */
  files?: boolean;
  /**
   * Runs the command.
   * @param argv The words after the command.
   * @param io The edges.
   * @returns The exit code.
   * @throws {InputError} On bad input (exit 2); other errors are bugs (exit 1).
   */
  run(argv: string[], io: CliIo): Promise<number>;
}

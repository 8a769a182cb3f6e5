/**
 * The shape every command file exports, so `main` can dispatch, list, explain
 * and complete them uniformly.
 * @module
 */

import type { FlagSpec } from "./_flags.ts";
import type { CliIo } from "./io.ts";

/** One `chant-wave` command. */
export interface Command {
  /** The word that selects it. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The usage line(s), without the leading `usage: `. */
  usage: string;
  /** Further lines of `--help`: what it does, its flags. */
  help: string;
  /**
   * Two to four real command lines for the EXAMPLES block of `--help`, each
   * `chant-wave …`, optionally followed by `  # what it does`.
   */
  examples: readonly string[];
  /** The flags it takes: `run` parses with them and completion offers them. */
  flags: FlagSpec;
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

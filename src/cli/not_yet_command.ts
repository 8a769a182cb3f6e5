/**
 * A placeholder for a command that is designed (SPEC.md §2) but not built yet: it
 * says so on one line and exits 2, never pretending to work.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Command } from "./command.ts";

/**
 * Creates a command that refuses to run because it does not exist yet.
 * @param name The command's word.
 * @param summary Its one-line summary.
 * @param usage Its usage line.
 * @returns The command.
 */
export function notYetCommand(
  name: string,
  summary: string,
  usage: string,
): Command {
  return {
    name,
    summary: `${summary} (not yet built)`,
    usage,
    help: `"${name}" is designed but not built in this version; it exits 2.`,
    examples: [],
    flags: {},
    run() {
      return Promise.reject(
        new InputError(`command "${name}" is not built yet in this version`),
      );
    },
  };
}

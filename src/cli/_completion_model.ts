/**
 * Builds the shell-completion model from the commands: each flag's name, what
 * its value completes to and its description, from the command's flag table.
 * @module
 */

import type {
  CompletionFlag,
  CompletionModel,
} from "../completion/completion_model.ts";
import type { Command } from "./command.ts";
import type { Flag } from "./_flags.ts";
import { flagText } from "./_flag_list.ts";

/**
 * The completion model of `commands`.
 * @param commands Every command, in the order they are listed.
 * @returns The model for `chant-wave`.
 */
export function completionModel(
  commands: readonly Command[],
): CompletionModel {
  return {
    program: "chant-wave",
    commands: commands.map((command) => ({
      name: command.name,
      summary: command.summary,
      flags: command.flags.map(completionFlag),
      words: command.words ?? [],
      files: command.files === true,
    })),
  };
}

/**
 * A flag as completion offers it: its help text on one line, and what its value
 * completes to; a flag whose value is optional completes as one without (the
 * next word may be anything).
 */
function completionFlag(flag: Flag): CompletionFlag {
  const description = flagText(flag).replaceAll("\n", " ");
  return flag.value === undefined || flag.value.optional
    ? { name: flag.name, description }
    : { name: flag.name, value: flag.value.kind ?? "text", description };
}

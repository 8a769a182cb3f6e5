/**
 * Builds the shell-completion model from the commands: their flags (from
 * `Command.flags`), each flag's description (from the command's help text, where
 * every flag is explained on a line of its own) and what its value completes to.
 * @module
 */

import type {
  CompletionFlag,
  CompletionModel,
  ValueKind,
} from "../completion/completion_model.ts";
import type { Command } from "./command.ts";

/** What the values of the flags that take one complete to; others: any text. */
const VALUE_KINDS: Readonly<Record<string, ValueKind>> = {
  spec: "file",
  out: "directory",
  ledger: "ledger",
};

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
      flags: [
        ...(command.flags.strings ?? []).map((name) =>
          flag(command, name, VALUE_KINDS[name] ?? "text")
        ),
        ...(command.flags.booleans ?? []).map((name) =>
          flag(command, name, undefined)
        ),
      ],
      words: command.words ?? [],
      files: command.files === true,
    })),
  };
}

function flag(
  command: Command,
  name: string,
  value: ValueKind | undefined,
): CompletionFlag {
  const description = flagDescription(command, name) ?? name;
  return value === undefined
    ? { name, description }
    : { name, value, description };
}

/**
 * A flag's description as the command's help gives it: the text after
 * `--name [VALUE]` on the line that explains it, with the deeper-indented lines
 * that continue it.
 * @param command The command.
 * @param name The flag, without `--`.
 * @returns The description, or `undefined` when the help does not explain it.
 * @example
 * ```ts
 * flagDescription(checkCommand, "spec"); // "the waves file (JSON or JSONC)"
 * ```
 */
export function flagDescription(
  command: Command,
  name: string,
): string | undefined {
  const lines = command.help.split("\n");
  const head = new RegExp(`^( +--${name}(?: [A-Z]+)? {2,})(\\S.*)$`);
  const at = lines.findIndex((line) => head.test(line));
  if (at < 0) return undefined;
  const [, indent, first] = head.exec(lines[at])!;
  const parts = [first];
  for (const line of lines.slice(at + 1)) {
    const more = /^( +)(\S.*)$/.exec(line);
    if (!more || more[1].length !== indent.length) break;
    parts.push(more[2]);
  }
  return parts.join(" ");
}

/**
 * Small pieces the completion renderers share: the shell function's name and a
 * command's flags that take a value.
 * @module
 */

import type { CompletionCommand, CompletionFlag } from "./completion_model.ts";

/**
 * The name of a completion function for `program`: `_` and the name with every
 * character outside `[A-Za-z0-9_]` turned into `_`.
 * @param program The executable's name.
 * @returns `_chant_wave` for `chant-wave`.
 * @example
 * ```ts
 * functionName("chant-wave"); // "_chant_wave"
 * ```
 */
export function functionName(program: string): string {
  return `_${program.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/**
 * The flags of a command that take a value.
 * @param command The command.
 * @returns Its flags with a `value`, in order.
 * @example
 * ```ts
 * valueFlags({ name: "check", summary: "", words: [], files: false,
 *   flags: [{ name: "spec", value: "file", description: "" },
 *     { name: "json", description: "" }] }).map((flag) => flag.name); // ["spec"]
 * ```
 */
export function valueFlags(
  command: CompletionCommand,
): readonly CompletionFlag[] {
  return command.flags.filter((flag) => flag.value !== undefined);
}

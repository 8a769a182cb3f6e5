/**
 * A command's usage line(s) from its usage forms and its flag table: each
 * `--name` in a form becomes `--name VALUE` (`--name [VALUE]` when the value is
 * optional) as the table says, so no flag's placeholder is written twice. Pure
 * text; it does not decide which forms a command has.
 * @module
 */

import type { Flag, FlagTable } from "./_flags.ts";

/** How far the help's first line is indented before the usage: `usage: `. */
const USAGE_PREFIX = "usage: ".length;

/**
 * The usage text of a command, without the leading `usage: `: one form per
 * line, `chant-wave NAME` and the form; a `\n` in a form continues it on a line
 * indented under the form's first word, and later forms are indented under the
 * first.
 * @param name The command's word.
 * @param forms The forms: positional words, `[`, `]`, `|` and `--name` of flags
 * in the table.
 * @param table The command's flags.
 * @returns The text.
 * @throws {Error} When a form names a flag the table lacks (a bug).
 * @example
 * ```ts
 * usageText("check", ["--spec [--json]"], [SPEC_FLAG, jsonFlag("…")]);
 * // "chant-wave check --spec F [--json]"
 * ```
 */
export function usageText(
  name: string,
  forms: readonly string[],
  table: FlagTable,
): string {
  const head = `chant-wave ${name}`;
  const continued = "\n" + " ".repeat(USAGE_PREFIX + head.length + 1);
  return forms.map((form) =>
    [head, ...(form === "" ? [] : [renderForm(form, table)])].join(" ")
      .replaceAll("\n", continued)
  ).join("\n" + " ".repeat(USAGE_PREFIX));
}

function renderForm(form: string, table: FlagTable): string {
  return form.replace(/--([a-z][a-z0-9-]*)/g, (_, flagName: string) => {
    const flag = table.find((candidate) => candidate.name === flagName);
    if (flag === undefined) {
      throw new Error(`usage form "${form}" names "--${flagName}", no flag`);
    }
    return flagHeading(flag, true);
  });
}

/**
 * A flag as the usage or the help shows it: `--name`, `--name VALUE`, and in
 * the usage `--name [VALUE]` when the value is optional.
 * @param flag The flag.
 * @param inUsage Whether it is for the usage line.
 * @returns The heading.
 * @example
 * ```ts
 * flagHeading(SPEC_FLAG, false); // "--spec F"
 * ```
 */
export function flagHeading(flag: Flag, inUsage: boolean): string {
  if (flag.value === undefined) return `--${flag.name}`;
  const value = inUsage && flag.value.optional
    ? `[${flag.value.name}]`
    : flag.value.name;
  return `--${flag.name} ${value}`;
}

/**
 * The flag list of a command's help, from its flag table: one flag a line,
 * its heading and its description (and default) in aligned columns. Pure text.
 * @module
 */

import type { Flag, FlagTable } from "./_flags.ts";
import { flagHeading } from "./_usage.ts";

/** Headings longer than this do not widen the column; their text follows them. */
const WIDEST_HEADING = 20;

/** Spaces before a heading, and at least between it and its text. */
const INDENT = 2;
const GAP = 3;

/**
 * A flag's description and default, as the help shows them (`\n` where the
 * help breaks the line).
 * @param flag The flag.
 * @returns The text.
 * @example
 * ```ts
 * flagText({ name: "parallel", value: { name: "N" },
 *   description: "runs at once", default: "the spec's" });
 * // "runs at once (default: the spec's)"
 * ```
 */
export function flagText(flag: Flag): string {
  return flag.default === undefined
    ? flag.description
    : `${flag.description} (default: ${flag.default})`;
}

/**
 * The help's flag list: each heading indented two spaces, the texts starting in
 * one column three spaces past the widest heading (of at most 20 characters; a
 * longer one is followed by two spaces), continued lines starting there too.
 * @param table The flags, in order.
 * @returns The lines joined by newlines, without a final one; `""` for none.
 * @example
 * ```ts
 * flagList([SPEC_FLAG, jsonFlag("print it")]);
 * // "  --spec F   the waves file\n  --json     print it"
 * ```
 */
export function flagList(table: FlagTable): string {
  const headings = table.map((flag) => flagHeading(flag, false));
  const width = Math.max(
    0,
    ...headings.filter((heading) => heading.length <= WIDEST_HEADING)
      .map((heading) => heading.length),
  );
  const column = " ".repeat(INDENT + width + GAP);
  return table.flatMap((flag, i) => {
    const [first, ...more] = flagText(flag).split("\n");
    const heading = headings[i].length <= WIDEST_HEADING
      ? headings[i].padEnd(width + GAP)
      : `${headings[i]}  `;
    return [
      `${" ".repeat(INDENT)}${heading}${first}`,
      ...more.map((line) => column + line),
    ];
  }).join("\n");
}

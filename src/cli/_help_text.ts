/**
 * The text of `chant-wave --help`, `chant-wave help <command>` and
 * `chant-wave help <topic>`: the overview of commands and topics, one command's
 * usage, flags and EXAMPLES block, and a topic. A command's usage lines and
 * flag list come from its flag table: each `--name` in a usage form becomes
 * `--name VALUE` (`--name [VALUE]` when the value is optional), so no flag's
 * placeholder is written twice, and the flag list is one flag a line with its
 * description (and default) in aligned columns. Pure text.
 * @module
 */

import { HELP_TOPICS, type HelpTopic, topicText } from "../help/help_topics.ts";
import { commandPage, moreLine, topicPage } from "../help/help_pages.ts";
import { VERSION } from "../version.ts";
import type { Command } from "./io.ts";
import type { Flag, FlagTable } from "./_flags.ts";

/**
 * The overview: every command and topic, with one line each.
 * @param commands The commands, in the order to list them.
 * @returns The text, ending with a newline.
 */
export function overviewText(commands: readonly Command[]): string {
  const width = Math.max(
    ...commands.map((command) => command.name.length),
    ...HELP_TOPICS.map((topic) => topic.length),
  );
  return [
    `chant-wave ${VERSION}: apply one change in ordered, gated waves`,
    "",
    "usage: chant-wave <command> [flags]   (chant-wave --spec F --wave K … means run)",
    "",
    "Commands:",
    ...commands.map((command) =>
      `  ${command.name.padEnd(width)}  ${command.summary}`
    ),
    "",
    "Topics:",
    ...HELP_TOPICS.map((topic) =>
      `  ${topic.padEnd(width)}  ${topicText(topic).summary}`
    ),
    "",
    'Run "chant-wave help <command>" for its flags and examples, "chant-wave help',
    '<topic>" for a topic. Exit codes: 0 done, 1 a run failed, 2 invalid input,',
    "3 waiting (an approval, the wave before, a hold), 4 plans moved, 130/143",
    "interrupted.",
    "",
  ].join("\n");
}

/**
 * One command's help: its usage, what it does, its flag list (from its flag
 * table), its notes, the docs page that tells the rest (`more: docs/…`, for
 * chant-wave's own commands) and its EXAMPLES block.
 * @param command The command.
 * @returns The text, ending with a newline.
 */
export function commandHelpText(command: Command): string {
  const flags = flagList(command.flags);
  const page = commandPage(command.name);
  return [
    `usage: ${usageText(command.name, command.usage, command.flags)}`,
    "",
    command.about,
    ...(flags === "" ? [] : ["", flags]),
    ...(command.notes === undefined ? [] : ["", command.notes]),
    ...(page === undefined ? [] : ["", moreLine(page)]),
    "",
    "EXAMPLES",
    ...command.examples.map((example) => `  ${example}`),
    "",
  ].join("\n");
}

/**
 * A topic's text, headed by its name and summary, ending with the docs page
 * that tells the rest (`more: docs/…`).
 * @param topic The topic.
 * @returns The text, ending with a newline.
 */
export function topicHelpText(topic: HelpTopic): string {
  const { summary, lines } = topicText(topic);
  return [
    `${topic}: ${summary}`,
    "",
    ...lines,
    "",
    moreLine(topicPage(topic)),
    "",
  ].join("\n");
}

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

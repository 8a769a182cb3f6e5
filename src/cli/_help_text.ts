/**
 * The text of `chant-wave --help`, `chant-wave help <command>` and
 * `chant-wave help <topic>`: the overview of commands and topics, one command's
 * usage, flags and EXAMPLES block, and a topic. Pure text.
 * @module
 */

import { HELP_TOPICS, type HelpTopic, topicText } from "../help/help_topics.ts";
import { commandPage, moreLine, topicPage } from "../help/help_pages.ts";
import { VERSION } from "../version.ts";
import type { Command } from "./command.ts";
import { flagList } from "./_flag_list.ts";
import { usageText } from "./_usage.ts";

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

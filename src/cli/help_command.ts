/**
 * `chant-wave help [COMMAND | TOPIC]`: the overview, one command's help (the
 * same as `chant-wave COMMAND --help`) or a topic, with a did-you-mean for a
 * word that is neither.
 * @module
 */

import { InputError } from "../errors.ts";
import { OK } from "../exit_codes.ts";
import { HELP_TOPICS, isHelpTopic } from "../help/help_topics.ts";
import { suggest } from "../spec/did_you_mean.ts";
import type { Command } from "./io.ts";
import { parseFlags } from "./_flags.ts";
import { commandHelpText, overviewText, topicHelpText } from "./_help_text.ts";

/**
 * Makes the `help` command over a list of commands that includes it.
 * @param commands Every command, read when `help` runs.
 * @returns The command.
 */
export function helpCommand(commands: () => readonly Command[]): Command {
  return {
    name: "help",
    summary: "show a command's help, or a topic",
    usage: ["[COMMAND | TOPIC]"],
    about: [
      "Without a word, lists the commands and topics. With a command, shows its",
      "usage, flags and examples (as COMMAND --help does). Topics:",
      ...HELP_TOPICS.map((topic) => `  ${topic}`),
    ].join("\n"),
    examples: [
      "chant-wave help run",
      "chant-wave help exit-codes",
      "chant-wave help approvals",
    ],
    flags: [],
    get words() {
      return [...commands().map((command) => command.name), ...HELP_TOPICS];
    },
    run(argv, io) {
      const flags = parseFlags("help", argv, []);
      const [word, ...extra] = flags.positionals;
      if (extra.length > 0) {
        throw new InputError(
          `"help" takes one command or topic; got "${
            flags.positionals.join(" ")
          }"`,
        );
      }
      io.stdout.write(helpText(word, commands()));
      return Promise.resolve(OK);
    },
  };
}

function helpText(word: string | undefined, commands: readonly Command[]) {
  if (word === undefined) return overviewText(commands);
  const command = commands.find((candidate) => candidate.name === word);
  if (command) return commandHelpText(command);
  if (isHelpTopic(word)) return topicHelpText(word);
  const near = suggest(word, [
    ...commands.map((candidate) => candidate.name),
    ...HELP_TOPICS,
  ]);
  const hint = near ? `; did you mean "${near}"?` : '; see "chant-wave help"';
  throw new InputError(`unknown command or topic "${word}"${hint}`);
}

/**
 * The fish completion script: commands with their summaries, each command's
 * flags with descriptions, files for `--spec`, directories for `--out`, `git`,
 * `git:` and directories for `--ledger`, and the words of a command's first
 * positional. Pure: model in, script out.
 * @module
 */

import type {
  CompletionCommand,
  CompletionFlag,
  CompletionModel,
} from "./completion_model.ts";
import { functionName, valueFlags } from "./_shell_words.ts";

/**
 * Renders the fish completion script for `model`.
 * @param model The commands and flags.
 * @returns The script, ending with a newline.
 * @example
 * ```ts
 * renderFish(model).includes("complete -c chant-wave -f"); // true
 * ```
 */
export function renderFish(model: CompletionModel): string {
  const fn = `_${functionName(model.program)}`;
  const c = `complete -c ${model.program}`;
  const top = `-n ${fn}_needs_command`;
  return [
    `# fish completion for ${model.program}, written by "${model.program} completion fish".`,
    `# Load it with: ${model.program} completion fish | source`,
    `# or save it as ~/.config/fish/completions/${model.program}.fish`,
    "",
    `function ${fn}_command`,
    "    set -l words (commandline -opc)",
    "    if not set -q words[2]",
    "        string match -q -- '-*' (commandline -ct); and echo run",
    "        return",
    "    end",
    "    if string match -q -- '-*' $words[2]",
    "        echo run",
    "    else",
    "        echo $words[2]",
    "    end",
    "end",
    "",
    `function ${fn}_needs_command`,
    "    test (count (commandline -opc)) -eq 1",
    "end",
    "",
    `function ${fn}_using`,
    `    set -l command (${fn}_command)`,
    '    test "$command" = "$argv[1]"',
    "end",
    "",
    "# True while the command has no positional word yet; $argv: its value flags.",
    `function ${fn}_no_word`,
    "    set -l words (commandline -opc)",
    "    set -e words[1]",
    "    if set -q words[1]; and not string match -q -- '-*' $words[1]",
    "        set -e words[1]",
    "    end",
    "    set -l skip 0",
    "    for word in $words",
    "        if test $skip -eq 1",
    "            set skip 0",
    "        else if contains -- $word $argv",
    "            set skip 1",
    "        else if not string match -q -- '-*' $word",
    "            return 1",
    "        end",
    "    end",
    "end",
    "",
    `${c} -f`,
    ...model.commands.map((command) =>
      `${c} ${top} -a ${command.name} -d ${quote(command.summary)}`
    ),
    `${c} ${top} -l help -d ${quote("show the help")}`,
    `${c} ${top} -l version -d ${quote("print the version")}`,
    ...model.commands.flatMap((command) => commandLines(command, c, fn)),
    "",
  ].join("\n");
}

function commandLines(
  command: CompletionCommand,
  c: string,
  fn: string,
): string[] {
  const using = `${fn}_using ${command.name}`;
  const lines = command.flags.map((flag) =>
    `${c} -n ${quote(using)} -l ${flag.name}${valueOptions(flag)} -d ${
      quote(flag.description)
    }`
  );
  const noWord = [
    `${fn}_no_word`,
    ...valueFlags(command).map((flag) => `--${flag.name}`),
  ].join(" ");
  if (command.words.length > 0) {
    lines.push(
      `${c} -n ${quote(`${using}; and ${noWord}`)} -a ${
        quote(command.words.join(" "))
      }`,
    );
  }
  if (command.files) {
    lines.push(`${c} -n ${quote(`${using}; and not ${noWord}`)} -F`);
  }
  return lines;
}

function valueOptions(flag: CompletionFlag): string {
  switch (flag.value) {
    case undefined:
      return "";
    case "file":
      return " -r -F";
    case "directory":
      return " -x -a '(__fish_complete_directories)'";
    case "ledger":
      return " -x -a 'git git: (__fish_complete_directories)'";
    case "text":
      return " -x";
  }
}

/** Single-quotes a word for fish (backslash and quote escaped). */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

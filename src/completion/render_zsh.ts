/**
 * The zsh completion script: commands with their summaries, each command's
 * flags with descriptions through `_arguments`, files for `--spec`, directories
 * for `--out`, `git`, `git:` and directories for `--ledger`, and the words of a
 * command's first positional. It works sourced after `compinit` or saved as
 * `_chant-wave` in `$fpath`. Pure: model in, script out.
 * @module
 */

import type {
  CompletionCommand,
  CompletionFlag,
  CompletionModel,
} from "./completion_model.ts";
import { functionName } from "./_shell_words.ts";

/**
 * Renders the zsh completion script for `model`.
 * @param model The commands and flags.
 * @returns The script, ending with a newline.
 * @example
 * ```ts
 * renderZsh(model).startsWith("#compdef chant-wave\n"); // true
 * ```
 */
export function renderZsh(model: CompletionModel): string {
  const fn = functionName(model.program);
  return [
    `#compdef ${model.program}`,
    `# zsh completion for ${model.program}, written by "${model.program} completion zsh".`,
    `# Load it with: source <(${model.program} completion zsh)   (after compinit),`,
    `# or save it as _${model.program} in a directory of $fpath.`,
    "",
    `${fn}_ledger() {`,
    "  compadd -- git",
    "  compadd -S '' -- git:",
    "  _files -/",
    "}",
    "",
    `${fn}() {`,
    "  local cmd",
    "  local -a commands",
    "  commands=(",
    ...model.commands.map((command) =>
      `    ${quote(`${escapeColon(command.name)}:${command.summary}`)}`
    ),
    "  )",
    "  if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then",
    `    _describe -t commands ${quote(`${model.program} command`)} commands`,
    "    return",
    "  fi",
    "  cmd=${words[2]}",
    "  if [[ $cmd == -* ]]; then",
    "    cmd=run",
    "  else",
    "    shift words",
    "    (( CURRENT-- ))",
    "  fi",
    "  case $cmd in",
    ...model.commands.flatMap((command) => commandArm(command, fn)),
    "  esac",
    "}",
    "",
    `if [[ $funcstack[1] == _${model.program} ]]; then`,
    `  ${fn} "$@"`,
    "else",
    `  compdef ${fn} ${model.program}`,
    "fi",
    "",
  ].join("\n");
}

function commandArm(command: CompletionCommand, fn: string): string[] {
  const specs = command.flags.map((flag) => flagSpec(flag, fn));
  if (command.name === "run") {
    specs.push(
      quote("--help[show the help]"),
      quote("--version[print the version]"),
    );
  }
  if (command.words.length > 0) {
    specs.push(quote(`1:word:(${command.words.join(" ")})`));
  }
  if (command.files) specs.push(quote("*:file:_files"));
  return [
    `    (${command.name})`,
    `      _arguments : \\`,
    ...specs.map((spec, i) =>
      `        ${spec}${i === specs.length - 1 ? "" : " \\"}`
    ),
    "      ;;",
  ];
}

function flagSpec(flag: CompletionFlag, fn: string): string {
  const head = `--${flag.name}[${escapeBrackets(flag.description)}]`;
  switch (flag.value) {
    case undefined:
      return quote(head);
    case "file":
      return quote(`${head}:file:_files`);
    case "directory":
      return quote(`${head}:directory:_files -/`);
    case "ledger":
      return quote(`${head}:ledger:${fn}_ledger`);
    case "text":
      return quote(`${head}:${flag.name}: `);
  }
}

/** Single-quotes a word for zsh. */
function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Escapes what ends or splits an `_arguments` description. */
function escapeBrackets(text: string): string {
  return text.replace(/[\\[\]:]/g, (char) => `\\${char}`);
}

/** Escapes a colon in a `_describe` item's name. */
function escapeColon(text: string): string {
  return text.replaceAll(":", "\\:");
}

/**
 * The bash completion script: one function that completes the command, its
 * flags, the values of `--spec` (files), `--out` (directories) and `--ledger`
 * (`git`, `git:`, directories), and the words of a command's first positional.
 * Pure: model in, script out.
 * @module
 */

import type {
  CompletionCommand,
  CompletionModel,
  ValueKind,
} from "./completion_model.ts";
import { functionName, valueFlags } from "./_shell_words.ts";

/** The candidates of each kind of value, for the helper that fills COMPREPLY. */
const CANDIDATES: Record<Exclude<ValueKind, "text">, string> = {
  file: 'compgen -f -- "$cur"',
  directory: 'compgen -d -- "$cur"',
  ledger: 'compgen -W \'git git:\' -- "$cur"; compgen -d -- "$cur"',
};

/**
 * Renders the bash completion script for `model`; load it with
 * `source <(chant-wave completion bash)`.
 * @param model The commands and flags.
 * @returns The script, ending with a newline.
 * @example
 * ```ts
 * renderBash(model).includes("complete -F _chant_wave chant-wave"); // true
 * ```
 */
export function renderBash(model: CompletionModel): string {
  const fn = functionName(model.program);
  const reply = `${fn}_reply`;
  const names = model.commands.map((command) => command.name).join(" ");
  return [
    `# bash completion for ${model.program}, written by "${model.program} completion bash".`,
    `# Load it with: source <(${model.program} completion bash)`,
    `${reply}() {`,
    "  compopt -o filenames 2>/dev/null",
    '  [[ -n $1 ]] && mapfile -t COMPREPLY <<<"$1"',
    "  return 0",
    "}",
    `${fn}() {`,
    "  local cur prev cmd first i w flags vflags words files count=0",
    "  COMPREPLY=()",
    "  cur=${COMP_WORDS[COMP_CWORD]}",
    "  prev=${COMP_WORDS[COMP_CWORD-1]}",
    "  if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then",
    `    COMPREPLY=($(compgen -W '${names}' -- "$cur"))`,
    "    return 0",
    "  fi",
    "  cmd=${COMP_WORDS[1]} first=2",
    "  if [[ $cmd == -* ]]; then cmd=run first=1; fi",
    "  case $cmd in",
    ...model.commands.map(commandArm),
    "    *) return 0 ;;",
    "  esac",
    "  if ((first == 1)); then flags+=' --help --version'; fi",
    '  case " $vflags " in',
    '    *" $prev "*)',
    "      case $prev in",
    ...valueArms(model, reply),
    "      esac",
    "      return 0 ;;",
    "  esac",
    "  if [[ $cur == -* ]]; then",
    '    COMPREPLY=($(compgen -W "$flags" -- "$cur"))',
    "    return 0",
    "  fi",
    "  for ((i = first; i < COMP_CWORD; i++)); do",
    "    w=${COMP_WORDS[i]}",
    "    if [[ $w == -* ]]; then",
    '      case " $vflags " in *" $w "*) ((i++)) ;; esac',
    "    else",
    "      ((count++))",
    "    fi",
    "  done",
    "  if ((count == 0)) && [[ -n $words ]]; then",
    '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    "  elif ((files)); then",
    `    ${reply} "$(compgen -f -- "$cur")"`,
    "  fi",
    "}",
    `complete -F ${fn} ${model.program}`,
    "",
  ].join("\n");
}

function commandArm(command: CompletionCommand): string {
  const flags = command.flags.map((flag) => `--${flag.name}`).join(" ");
  const values = valueFlags(command).map((flag) => `--${flag.name}`).join(" ");
  return `    ${command.name}) flags='${flags}' vflags='${values}' ` +
    `words='${command.words.join(" ")}' files=${command.files ? 1 : 0} ;;`;
}

function valueArms(model: CompletionModel, reply: string): string[] {
  const byKind = new Map<Exclude<ValueKind, "text">, Set<string>>();
  for (const command of model.commands) {
    for (const flag of command.flags) {
      if (flag.value === undefined || flag.value === "text") continue;
      const names = byKind.get(flag.value) ?? new Set<string>();
      byKind.set(flag.value, names.add(`--${flag.name}`));
    }
  }
  return [...byKind].map(([kind, names]) =>
    `        ${[...names].join("|")}) ${reply} "$(${CANDIDATES[kind]})" ;;`
  );
}

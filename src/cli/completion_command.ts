/**
 * `chant-wave completion bash|zsh|fish`: prints the shell's completion script
 * for every command, flag and value chant-wave knows, from a model built from
 * the commands' flag tables (each flag's name, what its value completes to,
 * its description).
 * @module
 */

import { InputError } from "../errors.ts";
import { OK } from "../exit_codes.ts";
import {
  type CompletionFlag,
  type CompletionModel,
  type Shell,
  SHELLS,
} from "../completion/completion_model.ts";
import { renderCompletion } from "../completion/render_completion.ts";
import { suggest } from "../spec/did_you_mean.ts";
import type { Command } from "./io.ts";
import { type Flag, parseFlags } from "./_flags.ts";
import { flagText } from "./_help_text.ts";

/**
 * Makes the `completion` command over a list of commands that includes it.
 * @param commands Every command, read when `completion` runs.
 * @returns The command.
 */
export function completionCommand(
  commands: () => readonly Command[],
): Command {
  return {
    name: "completion",
    summary: "print a shell completion script (bash, zsh, fish)",
    usage: ["bash|zsh|fish"],
    about: [
      "Prints the completion script of the shell on stdout: the commands, each",
      "command's flags, files for --spec, directories for --out, git, git: and",
      "directories for --ledger, and the forges, shells, topics or ledger actions",
      "a command's first word takes.",
      "",
      "  bash   source <(chant-wave completion bash), e.g. in ~/.bashrc",
      "  zsh    source <(chant-wave completion zsh) after compinit, or save it as",
      "         _chant-wave in a directory of $fpath",
      "  fish   chant-wave completion fish | source, or save it in",
      "         ~/.config/fish/completions/chant-wave.fish",
    ].join("\n"),
    examples: [
      "chant-wave completion bash > ~/.local/share/bash-completion/completions/chant-wave",
      'chant-wave completion zsh > "${fpath[1]}/_chant-wave"',
      "chant-wave completion fish > ~/.config/fish/completions/chant-wave.fish",
    ],
    flags: [],
    words: SHELLS,
    run(argv, io) {
      const flags = parseFlags("completion", argv, []);
      const shell = shellOf(flags.positionals);
      io.stdout.write(renderCompletion(shell, completionModel(commands())));
      return Promise.resolve(OK);
    },
  };
}

function shellOf(positionals: readonly string[]): Shell {
  const choices = SHELLS.join(", ");
  if (positionals.length !== 1) {
    const got = positionals.length
      ? `got "${positionals.join(" ")}"`
      : "got none";
    throw new InputError(`"completion" needs one shell (${choices}); ${got}`);
  }
  const [word] = positionals;
  if ((SHELLS as readonly string[]).includes(word)) return word as Shell;
  const near = suggest(word, SHELLS);
  const hint = near ? `; did you mean "${near}"?` : `; choose ${choices}`;
  throw new InputError(`unknown shell "${word}"${hint}`);
}

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
      flags: command.flags.map(completionFlag),
      words: command.words ?? [],
      files: command.files === true,
    })),
  };
}

/**
 * A flag as completion offers it: its help text on one line, and what its value
 * completes to; a flag whose value is optional completes as one without (the
 * next word may be anything).
 */
function completionFlag(flag: Flag): CompletionFlag {
  const description = flagText(flag).replaceAll("\n", " ");
  return flag.value === undefined || flag.value.optional
    ? { name: flag.name, description }
    : { name: flag.name, value: flag.value.kind ?? "text", description };
}

/**
 * What a shell completion script offers, independent of the shell: the
 * commands, each command's flags (with what their values are) and the words its
 * first positional takes. The CLI builds it from its commands; the renderers
 * turn it into bash, zsh or fish. Types and the shell names only.
 * @module
 */

/** The shells `chant-wave completion` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/** One of {@linkcode SHELLS}. */
export type Shell = typeof SHELLS[number];

/**
 * What a flag's value completes to: nothing in particular, a file, a directory,
 * or a ledger (`git`, `git:` and directories).
 */
export type ValueKind = "text" | "file" | "directory" | "ledger";

/** One flag of a command. */
export interface CompletionFlag {
  /** Its name, without the leading `--`. */
  name: string;
  /** What its value completes to; absent for a flag that takes no value. */
  value?: ValueKind;
  /** One line for shells that show descriptions. */
  description: string;
}

/** One command. */
export interface CompletionCommand {
  /** The word that selects it. */
  name: string;
  /** One line for shells that show descriptions. */
  summary: string;
  /** Its flags. */
  flags: readonly CompletionFlag[];
  /** The words its first positional takes (forges, shells, topics…). */
  words: readonly string[];
  /** Whether its other positionals are files. */
  files: boolean;
}

/** Everything a completion script offers. */
export interface CompletionModel {
  /** The executable's name: `chant-wave`. */
  program: string;
  /** The commands, in the order they are listed. */
  commands: readonly CompletionCommand[];
}

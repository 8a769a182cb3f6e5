/**
 * The `--sign [KEY]` flag of `approve` (SPEC.md §12), whose value is optional:
 * `--sign=KEY`, or `--sign KEY` when the next word is not a flag, or `--sign`
 * alone for git's signing key. Taken out of the words before the strict flag
 * parser sees them.
 * @module
 */

import { InputError } from "../errors.ts";

/** `--sign` as given: absent, or present with or without a KEY. */
export interface SignFlag {
  /** The words without `--sign` and its KEY. */
  rest: string[];
  /** Present when `--sign` was given; `key` when a KEY followed it. */
  sign?: { key?: string };
}

/**
 * Takes `--sign [KEY]` out of a command's words.
 * @param argv The words after the command.
 * @returns The other words, and the flag.
 * @throws {InputError} When `--sign` is given twice or `--sign=` has no KEY.
 * @example
 * ```ts
 * takeSignFlag(["tf", "tf-wave-2", "--sign", "~/.ssh/id_ed25519"]);
 * // { rest: ["tf", "tf-wave-2"], sign: { key: "~/.ssh/id_ed25519" } }
 * takeSignFlag(["tf", "tf-wave-2", "--sign", "--by", "ann"]);
 * // { rest: ["tf", "tf-wave-2", "--by", "ann"], sign: {} }
 * ```
 */
export function takeSignFlag(argv: readonly string[]): SignFlag {
  const rest: string[] = [];
  let sign: { key?: string } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (word !== "--sign" && !word.startsWith("--sign=")) {
      rest.push(word);
      continue;
    }
    if (sign !== undefined) {
      throw new InputError('flag "--sign" is given more than once');
    }
    if (word.startsWith("--sign=")) {
      const key = word.slice("--sign=".length);
      if (key === "") throw new InputError('flag "--sign=" needs a KEY');
      sign = { key };
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith("-")) {
      sign = { key: argv[++i] };
    } else sign = {};
  }
  return sign === undefined ? { rest } : { rest, sign };
}

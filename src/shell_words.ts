/**
 * POSIX shell quoting for every command line chant-wave prints or writes (the
 * `then approve:` line, pipeline scripts, `jobs`): words of safe characters stay
 * bare, anything else is single-quoted, so a line works as printed. Pure.
 * @module
 */

const SAFE = /^[A-Za-z0-9_@%+=:,./^~-]+$/;

/**
 * Quotes one word for a POSIX shell when it needs it.
 * @param word The word.
 * @returns It bare, or single-quoted.
 * @example
 * ```ts
 * shellWord("a b"); // "'a b'"
 * shellWord("plain"); // "plain"
 * ```
 */
export function shellWord(word: string): string {
  return SAFE.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/**
 * Joins `words` into one shell command line that runs exactly that argv.
 * @param words The argv.
 * @returns The line.
 * @example
 * ```ts
 * shellLine(["chant-wave", "run", "--spec", "my waves.jsonc"]);
 * // "chant-wave run --spec 'my waves.jsonc'"
 * ```
 */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(" ");
}

/**
 * POSIX shell quoting for the command lines written into pipeline scripts: words
 * of safe characters stay bare, anything else is single-quoted.
 * @module
 */

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Joins `words` into one shell command line that runs exactly that argv.
 * @param words The argv.
 * @returns The line.
 * @example
 * ```ts
 * shellQuote(["chant-wave", "run", "--spec", "my waves.jsonc"]);
 * // "chant-wave run --spec 'my waves.jsonc'"
 * ```
 */
export function shellQuote(words: readonly string[]): string {
  return words.map((word) =>
    SAFE.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`
  ).join(" ");
}

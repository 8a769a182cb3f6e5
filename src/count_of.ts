/**
 * Counting a noun in a message (`1 run`, `3 plans`): the one place the plural
 * `s` is added, so every line counts the same way. Pure.
 * @module
 */

/**
 * Counts a noun: `1 run`, `2 runs`.
 * @param count How many.
 * @param noun The noun, singular (its plural adds `s`).
 * @returns The count and the noun.
 * @example
 * ```ts
 * countOf(1, "run"); // "1 run"
 * countOf(0, "plan"); // "0 plans"
 * ```
 */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * OpenSSH pattern lists (ssh_config(5) PATTERNS), as the principals field and the
 * `namespaces` option of an allowed-signers line use them: comma-separated
 * patterns where `*` matches any characters (possibly none), `?` exactly one, and
 * a leading `!` negates. Pure; the matcher runs in time bounded by the product of
 * the lengths (no exponential backtracking).
 * @module
 */

/** One pattern of a list. */
export interface Pattern {
  /** `!pattern`: a match excludes instead of including. */
  readonly negated: boolean;
  /** The pattern without its `!`. */
  readonly pattern: string;
}

/** A parsed pattern list; matching follows OpenSSH's `match_pattern_list`. */
export type PatternList = readonly Pattern[];

/**
 * Splits a pattern list at commas.
 * @param text The list, e.g. `*@example.com,!eve@example.com`.
 * @param normalise Applied to each pattern (after the `!`, and any white space
 * before it, is taken off).
 * @returns The patterns, in order; empty entries are kept (they match only "").
 * @example
 * ```ts
 * parsePatternList("a@x,!b@x");
 * // [{ negated: false, pattern: "a@x" }, { negated: true, pattern: "b@x" }]
 * ```
 */
export function parsePatternList(
  text: string,
  normalise: (pattern: string) => string = (pattern) => pattern,
): PatternList {
  return text.split(",").map((entry) => {
    const negated = /^\s*!/.test(entry);
    const pattern = negated ? entry.replace(/^\s*!/, "") : entry;
    return { negated, pattern: normalise(pattern) };
  });
}

/**
 * Tells whether `value` matches a pattern list: some positive pattern matches and
 * no negated pattern does.
 * @param value The value (already normalised as the patterns were).
 * @param list The patterns.
 * @returns `true` when the list accepts the value.
 * @example
 * ```ts
 * const list = parsePatternList("*@example.com,!eve@example.com");
 * matchesPatternList("ann@example.com", list); // true
 * matchesPatternList("eve@example.com", list); // false
 * ```
 */
export function matchesPatternList(value: string, list: PatternList): boolean {
  let accepted = false;
  for (const { negated, pattern } of list) {
    if (!globMatches(value, pattern)) continue;
    if (negated) return false;
    accepted = true;
  }
  return accepted;
}

/**
 * Matches a whole value against one pattern (`*` any run, `?` one character
 * unless `question` is false; everything else literal), by code point. Greedy
 * with one backtrack point, so at most `value.length × pattern.length` steps.
 * @param value The value.
 * @param pattern The pattern.
 * @param question Whether `?` matches one character (else it is literal).
 * @returns `true` when the pattern matches all of the value.
 * @example
 * ```ts
 * globMatches("ann@example.com", "a?n@*.com"); // true
 * globMatches("a?n", "a?n", false); // true: `?` is literal
 * ```
 */
export function globMatches(
  value: string,
  pattern: string,
  question = true,
): boolean {
  const v = Array.from(value);
  const p = Array.from(pattern);
  let vi = 0;
  let pi = 0;
  let star = -1;
  let resume = 0;
  while (vi < v.length) {
    if (
      pi < p.length &&
      ((question && p[pi] === "?") || (p[pi] !== "*" && p[pi] === v[vi]))
    ) {
      vi++;
      pi++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      resume = vi;
    } else if (star >= 0) {
      pi = star + 1;
      vi = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}

/**
 * "Did you mean …?" suggestions: the nearest known word to a mistyped one, by
 * Damerau–Levenshtein distance (adjacent swaps count as one edit). Used for
 * unknown spec fields and values, waves, groups and commands; it does not word the
 * message.
 * @module
 */

/**
 * The largest distance still worth suggesting for a word of this length: short
 * words allow fewer edits, so `"ab"` is never "corrected" to an unrelated word.
 */
function threshold(length: number): number {
  if (length <= 2) return 0;
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return 3;
}

/** Words longer than this are never corrected (no known word is that long). */
const MAX_WORD = 64;

/**
 * The optimal-string-alignment distance between two strings: insertions,
 * deletions, substitutions and swaps of adjacent characters each cost one.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i, ...new Array<number>(b.length).fill(0)]);
  }
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        rows[i - 1][j] + 1,
        rows[i][j - 1] + 1,
        rows[i - 1][j - 1] + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * Suggests the candidate nearest to `word`, ignoring case, when it is close enough
 * to be a likely typo: at most 1 edit for words of 3–4 characters, 2 for 5–8, 3
 * for longer ones, and only a difference of case for 1–2 characters. Ties go to
 * the earlier candidate.
 * @param word The unknown word the user wrote.
 * @param candidates The known words, in order of preference.
 * @returns The nearest candidate, or `undefined` when none is close.
 * @example
 * ```ts
 * suggest("share", ["name", "runs", "shares"]); // "shares"
 * suggest("zzz", ["name", "runs"]); // undefined
 * ```
 */
export function suggest(
  word: string,
  candidates: readonly string[],
): string | undefined {
  const limit = threshold(word.length);
  if (word.length > MAX_WORD) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - lower.length) > limit) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

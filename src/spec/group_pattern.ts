/**
 * Job-group patterns (SPEC.md §3.3): which targets a group's `runs` patterns
 * select. Pure; choosing the one group of each run is the spec checks' and the job
 * expansion's business.
 *
 * The choices, beyond the SPEC's text:
 * - `*` matches any characters except `/`, possibly none: `live/*` matches
 *   `live/vpc` and `live/`, not `live/prod/vpc`; `*` alone matches every target
 *   without a `/`.
 * - `**` (two or more stars) matches any characters including `/`, possibly none:
 *   `**` alone matches every target; `a**b` matches `ab` and `a/x/b`; a trailing
 *   `live/**` matches `live/` and everything under it, not `live` itself.
 * - A `**` that is a whole segment followed by `/` also matches no segment at all,
 *   as in `.gitignore`: `a/**\/b` matches `a/b`, `a/x/b` and `a/x/y/b`, and a
 *   leading `**\/vpc` matches `vpc` and `live/prod/vpc` (not `livevpc`).
 * - Every other character is literal, regular-expression specials included
 *   (`?`, `[`, `{`, `.`, `+` …). Patterns are anchored: they match whole targets.
 * @module
 */

const REGEX_SPECIALS = /[\\^$.|?*+()[\]{}]/;

/**
 * Compiles a group pattern to an anchored regular expression.
 * @param pattern An exact target, or one with `*` and `**` (see the module doc).
 * @returns A `RegExp` that tests whole targets.
 * @example
 * ```ts
 * compilePattern("live/*\/vpc").test("live/prod/vpc"); // true
 * compilePattern("live/*").test("live/prod/vpc"); // false
 * ```
 */
export function compilePattern(pattern: string): RegExp {
  let source = "";
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char !== "*") {
      source += REGEX_SPECIALS.test(char) ? `\\${char}` : char;
      i++;
      continue;
    }
    let end = i;
    while (pattern[end] === "*") end++;
    if (end - i === 1) {
      source += "[^/]*";
    } else if ((i === 0 || pattern[i - 1] === "/") && pattern[end] === "/") {
      source += "(?:.*/)?";
      end++;
    } else {
      source += ".*";
    }
    i = end;
  }
  return new RegExp(`^${source}$`, "s");
}

/**
 * Tells whether a target matches a group pattern. Compiles the pattern on every
 * call; use {@linkcode compilePattern} once when matching many targets.
 * @param pattern An exact target, or one with `*` and `**`.
 * @param target A run's target.
 * @returns `true` when the whole target matches.
 * @example
 * ```ts
 * matchesPattern("a/**\/b", "a/b"); // true
 * matchesPattern("tenant-*", "tenant-42"); // true
 * ```
 */
export function matchesPattern(pattern: string, target: string): boolean {
  return compilePattern(pattern).test(target);
}

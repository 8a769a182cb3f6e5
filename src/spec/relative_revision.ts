/**
 * Whether a revision a spec's `base` or `--base` names is relative to where
 * the checkout stands (SPEC.md §4.4): `HEAD`, `@`, `HEAD^1`, `@~2`, a reflog or
 * upstream (`main@{1}`, `@{-1}`, `@{u}`), a pseudo-ref (`ORIG_HEAD`,
 * `FETCH_HEAD`, …) or a commit-message search (`:/fix`). Such a revision names
 * a commit the change chose (its own head, or one of its commits), so it never
 * bounds what governs the change. Pure: it reads the text only.
 * @module
 */

/** `HEAD`, `@`, and the pseudo-refs git keeps beside it (any case: some file systems fold it). */
const RELATIVE_START = /^(?:@|[A-Za-z_]*HEAD|AUTO_MERGE)(?:$|[\^~:@])/i;

/**
 * Tells whether a revision is relative to where the checkout stands.
 * @param rev The revision as written.
 * @returns `true` for `HEAD^1`, `@`, `main@{1}`, `FETCH_HEAD`, `:/text`, …
 * @example
 * ```ts
 * isRelativeRevision("HEAD^1"); // true
 * isRelativeRevision("v1.2.0"); // false
 * ```
 */
export function isRelativeRevision(rev: string): boolean {
  const text = rev.trim();
  return RELATIVE_START.test(text) || text.includes("@{") ||
    text.startsWith(":");
}

/**
 * Hides credentials in URLs before they are printed (SPEC.md §14):
 * `https://user:token@host/…` becomes `https://***@host/…`. Pure.
 * @module
 */

const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"`]+@/gi;

/**
 * Masks the user-information part of every URL in `text`.
 * @param text Any text (an error, a log line, git's stderr).
 * @returns The text with `scheme://<anything>@` shown as `scheme://***@`.
 * @example
 * ```ts
 * maskCredentials("cannot reach https://ann:tok3n@git.example/x.git");
 * // "cannot reach https://***@git.example/x.git"
 * ```
 */
export function maskCredentials(text: string): string {
  return text.includes("@") ? text.replace(CREDENTIALS, "$1***@") : text;
}

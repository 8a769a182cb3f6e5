/**
 * Quotes a value from outside for a message (SPEC.md §14): JSON string escaping
 * (so no control character reaches the terminal) and at most 60 characters, so
 * a megabyte key is never echoed whole. The one echo cut of chant-wave. Pure.
 * @module
 */

import { MAX_ECHO_LENGTH } from "./limits.ts";

/**
 * Quotes `text` as a JSON string, cut to {@linkcode MAX_ECHO_LENGTH} characters
 * with an ellipsis.
 * @param text What the user (or a file, a child, a forge) wrote.
 * @returns `"dev"`, or `"aaaa…"` for a long one.
 * @example
 * ```ts
 * quote("share"); // '"share"'
 * quote("x".repeat(100)).length; // 62
 * ```
 */
export function quote(text: string): string {
  return JSON.stringify(cut(text));
}

/**
 * Shows any parsed value for a message: a string as {@linkcode quote} does,
 * anything else as its JSON, cut the same way (JSON already escapes control
 * characters).
 * @param value A value read from untrusted JSON.
 * @returns `"dev"`, `7`, `null`, `{"a":1}`, or a cut form of a long one.
 * @example
 * ```ts
 * quoteValue(7); // "7"
 * quoteValue("eu"); // '"eu"'
 * quoteValue([1, 2]); // "[1,2]"
 * ```
 */
export function quoteValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  return cut(JSON.stringify(value) ?? String(value));
}

/** `text`, or its first 59 characters and `…` (never half a surrogate pair). */
function cut(text: string): string {
  if (text.length <= MAX_ECHO_LENGTH) return text;
  let end = MAX_ECHO_LENGTH - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

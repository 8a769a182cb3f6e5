/**
 * Quotes a value the user wrote for a message (SPEC.md §14): JSON string
 * escaping (so no control character reaches the terminal) and at most 60
 * characters, so a megabyte key is never echoed whole. Pure.
 * @module
 */

import { MAX_ECHO_LENGTH } from "./limits.ts";

/**
 * Quotes `text` as a JSON string, cut to {@linkcode MAX_ECHO_LENGTH} characters
 * with an ellipsis.
 * @param text What the user wrote.
 * @returns `"dev"`, or `"aaaa…"` for a long one.
 * @example
 * ```ts
 * quote("share"); // '"share"'
 * quote("x".repeat(100)).length; // 62
 * ```
 */
export function quote(text: string): string {
  if (text.length <= MAX_ECHO_LENGTH) return JSON.stringify(text);
  let end = MAX_ECHO_LENGTH - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return JSON.stringify(`${text.slice(0, end)}…`);
}

/**
 * Makes untrusted text safe to print (SPEC.md §14): every control character a
 * user, a plan file or a child process wrote is shown as an escape (`\x1b`, `\r`,
 * `\n`, …; a tab is kept), and so are the invisible characters that reorder or
 * split lines on a terminal (bidi controls, line and paragraph separators). Such
 * text can then neither drive the terminal nor start a line of chant-wave's own.
 * Pure; colouring and writing are other modules' jobs.
 * @module
 */

/**
 * The characters {@linkcode visible} escapes: C0 controls but tab, DEL, C1
 * controls, the bidi marks, embeddings, overrides and isolates, and the Unicode
 * line and paragraph separators.
 */
const UNSAFE =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

const NAMED: Record<string, string> = {
  "\n": "\\n",
  "\r": "\\r",
  "\x1b": "\\x1b",
  "\0": "\\0",
};

function escape(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Shows `text` with its control characters made visible, so it prints on one line
 * and cannot move the cursor, change colours, set the window title or write the
 * clipboard. Text without such characters is returned as it is (no copy).
 * @param text Untrusted text: an output line, a summary, a target, a note.
 * @returns The text with each unsafe character replaced by its escape.
 * @example
 * ```ts
 * visible("\x1b[2Jcleared\r\nthen approve: x"); // "\\x1b[2Jcleared\\r\\nthen approve: x"
 * visible("tab\tkept"); // "tab\tkept"
 * ```
 */
export function visible(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escape) : text;
}

/**
 * Whether `text` holds a character {@linkcode visible} would escape (a control
 * character but tab, or an invisible line or direction control).
 * @param text Any text.
 * @returns `true` when printing it raw would be unsafe.
 * @example
 * ```ts
 * hasControlCharacter("eu-1"); // false
 * hasControlCharacter("eu\u0000"); // true
 * ```
 */
export function hasControlCharacter(text: string): boolean {
  return UNSAFE.test(text);
}

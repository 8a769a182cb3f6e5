/**
 * Text from a user, a plan or a record, made safe to put in GitHub's Markdown
 * (SPEC.md §14): it can add no heading, table row or cell, link, autolink, HTML,
 * image or emphasis of its own, and stays on its line. Pure.
 * @module
 */

import { maskCredentials, visible } from "../console/visible.ts";

/**
 * What starts Markdown of its own wherever it stands in a line: code, emphasis,
 * links and images (`[`), HTML and autolinks (`<`), entities, table cells,
 * math, and the `@` of an e-mail autolink; plus `#` for good measure.
 */
const SPECIAL = /[\\`*_~[\]<>&#|$@]/g;
/** The `:` of `scheme://` and the `.` of `www.`, which GitHub links by themselves. */
const AUTOLINK = /:(?=\/\/)|(?<=www)\./gi;
/**
 * A `@` that could start a mention and a `#` that could start an issue
 * reference: GitHub links those in the rendered text, escaped or not, so a
 * zero-width space (as an entity) goes after them.
 */
const REFERENCE = /(?<![\w\\])\\@|\\#(?=\w)/g;

/** The longest text a summary shows of one value, in characters. */
export const MAX_MARKDOWN_TEXT = 300;

/**
 * Escapes untrusted text for Markdown: credentials in URLs masked first (the
 * escaping below would hide a URL from the masking of the summary file);
 * control characters (line ends included) made visible, so it stays on its line and never starts one; then each
 * character that starts Markdown mid-line backslash-escaped (CommonMark lets a
 * backslash escape any ASCII punctuation), so no `|`, `[`, `<`, `*` or `` ` ``
 * acts, no `https://`, `www.` or e-mail address forms an autolink, and no
 * `@name` or `#12` a mention or a reference; cut to
 * {@linkcode MAX_MARKDOWN_TEXT} characters.
 * @param text Untrusted text.
 * @returns The escaped text.
 * @example
 * ```ts
 * markdownText("a|b [x](y)"); // "a\\|b \\[x\\](y)"
 * ```
 */
export function markdownText(text: string): string {
  text = maskCredentials(text);
  const cut = text.length > MAX_MARKDOWN_TEXT
    ? `${text.slice(0, MAX_MARKDOWN_TEXT - 1)}…`
    : text;
  return visible(cut).replace(SPECIAL, (c) => `\\${c}`)
    .replace(AUTOLINK, (c) => `\\${c}`)
    .replace(REFERENCE, (c) => `${c}&#8203;`);
}

/**
 * A fenced code block holding `line` literally: control characters made
 * visible, and a fence longer than any run of backticks in it, so the line can
 * neither close the block nor open one of its own.
 * @param line A command to show (it may hold a user's ledger path).
 * @returns The block's lines.
 * @example
 * ```ts
 * codeBlock("chant-wave approve tf tf-wave-2"); // ["```", "chant-wave approve tf tf-wave-2", "```"]
 * ```
 */
export function codeBlock(line: string): string[] {
  const text = visible(maskCredentials(line));
  const longest = Math.max(
    0,
    ...[...text.matchAll(/`+/g)].map((m) => m[0].length),
  );
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [fence, text, fence];
}

/**
 * Colour for chant-wave's own words on a terminal: the style names a log line
 * may mark (`error`, `waiting`, `destructive`, …), the rule that decides whether
 * a writer gets colour at all, and the ANSI codes of each style. It never sees
 * untrusted text unescaped: `line_log.ts` makes a segment's text visible first
 * and only then wraps it in a style's codes.
 * @module
 */

import type { Writer } from "./writer.ts";

/** The styles a log line can mark, one per kind of word chant-wave colours. */
export const STYLES = [
  "error",
  "warning",
  "ok",
  "approved",
  "waiting",
  "approve",
  "refused",
  "destructive",
  "dim",
] as const;

/** One of {@linkcode STYLES}. */
export type Style = typeof STYLES[number];

/** A piece of a log line shown in a style when the log has colour. */
export interface Styled {
  /** How it is shown on a terminal. */
  readonly style: Style;
  /** The text; made visible like any other text of the line. */
  readonly text: string;
}

/** A piece of a log line: plain text or styled text. */
export type Segment = string | Styled;

/** A log line: one string, or segments written one after another. */
export type Line = string | readonly Segment[];

const CODES: Record<Style, string> = {
  error: "1;31",
  warning: "33",
  ok: "32",
  approved: "32",
  waiting: "33",
  approve: "1;36",
  refused: "1;31",
  destructive: "1;31",
  dim: "2",
};

/**
 * Marks `text` to be shown in `style` when the log has colour.
 * @param style The style.
 * @param text The text (untrusted text is fine: it is made visible first).
 * @returns The segment.
 * @example
 * ```ts
 * log(["gate demo-wave-2: ", styled("waiting", "waiting"), ": always"]);
 * ```
 */
export function styled(style: Style, text: string): Styled {
  return { style, text };
}

/**
 * Wraps already-safe text in the ANSI codes of `style`. Only `line_log.ts`
 * calls it, after making the text visible.
 * @param style The style.
 * @param safe Text without control characters.
 * @returns `ESC[<codes>m<text>ESC[0m`.
 * @example
 * ```ts
 * paint("ok", "ok:"); // "\x1b[32mok:\x1b[0m"
 * ```
 */
export function paint(style: Style, safe: string): string {
  return safe === "" ? "" : `\x1b[${CODES[style]}m${safe}\x1b[0m`;
}

/**
 * Whether lines written to `writer` get colour: only when it is a terminal,
 * `NO_COLOR` is unset or empty (no-color.org) and `TERM` is not `dumb`.
 * `FORCE_COLOR` is not honoured: a log that is not a terminal (a CI log, a file,
 * a pipe) never gets escape sequences.
 * @param writer The writer the lines go to.
 * @param env The environment.
 * @returns `true` to colour.
 * @example
 * ```ts
 * useColour(fdWriter(2), { NO_COLOR: "1" }); // false
 * useColour(memoryWriter(), {}); // false: not a terminal
 * ```
 */
export function useColour(
  writer: Writer,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (writer.isTerminal !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return env.TERM !== "dumb";
}

/** The leading words of chant-wave's own lines, and how each is shown. */
const LEADS: readonly (readonly [string, Style])[] = [
  ["error:", "error"],
  ["warning:", "warning"],
  ["ok:", "ok"],
  ["approved", "approved"],
  ["then approve:", "approve"],
  ["waiting:", "waiting"],
  ["refused:", "refused"],
  ["destructive:", "destructive"],
];

/**
 * Styles the leading word of one of chant-wave's own lines (`error:`,
 * `warning:`, `ok:`, `approved`, `then approve:`, `waiting:`, `refused:`,
 * `destructive:`); any other line is returned as it is. Use it only on lines
 * whose start chant-wave wrote itself: untrusted text quoted later in the line
 * is escaped as usual and never styled.
 * @param line One log line of chant-wave's own.
 * @returns The line, its leading word styled when it has one.
 * @example
 * ```ts
 * styledLead("then approve: chant-wave approve demo demo-wave-2 --plan sha256:…");
 * // [{ style: "approve", text: "then approve:" }, " chant-wave approve demo …"]
 * styledLead("planned 2 runs"); // "planned 2 runs"
 * ```
 */
export function styledLead(line: string): Line {
  for (const [word, style] of LEADS) {
    if (line.startsWith(word)) {
      return [styled(style, word), line.slice(word.length)];
    }
  }
  return line;
}

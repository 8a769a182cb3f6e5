/**
 * chant-wave's own log lines: one function that writes one line to a writer with
 * every unsafe character made visible (SPEC.md §14), so whatever untrusted value a
 * line quotes cannot break it in two or drive the terminal. Credentials in URLs
 * are masked on the way. A line may mark words with a style (`colour.ts`); the
 * style's escape codes are added only after the text was made visible, and only
 * when the log was made with colour. It formats nothing else.
 * @module
 */

import { type Line, paint, useColour } from "./colour.ts";
import { maskCredentials, visible } from "./visible.ts";
import type { Writer } from "./writer.ts";

/** Writes one log line (no line end in it): a string, or styled segments. */
export type LineLog = (line: Line) => void;

/** Options of {@linkcode lineLog}. */
export interface LineLogOptions {
  /**
   * Show styled segments in colour (decide with `useColour`).
   * @default {false}
   */
  colour?: boolean;
}

/**
 * Makes the log of one writer: each call writes the line's text, made visible
 * and with credentials in URLs masked, and a newline, in one `write`. Styled
 * segments are wrapped in their colour codes only with `colour: true`; without
 * it they are plain text.
 * @param writer Where the lines go (stderr in the CLI).
 * @param options Whether to colour.
 * @returns The log function.
 * @example
 * ```ts
 * const out = memoryWriter();
 * lineLog(out)("summary: a\nthen approve: x");
 * out.text(); // "summary: a\\nthen approve: x\n"
 * lineLog(out, { colour: true })([styled("error", "error:"), " \x1b[2J"]);
 * // "\x1b[1;31merror:\x1b[0m \\x1b[2J\n"
 * ```
 */
export function lineLog(
  writer: Writer,
  options: LineLogOptions = {},
): LineLog {
  const colour = options.colour === true;
  return (line) => {
    if (typeof line === "string") {
      writer.write(`${safe(line)}\n`);
      return;
    }
    let text = "";
    for (const segment of line) {
      if (typeof segment === "string") text += safe(segment);
      else if (colour) text += paint(segment.style, safe(segment.text));
      else text += safe(segment.text);
    }
    writer.write(`${text}\n`);
  };
}

/**
 * The log of a writer, in colour when `useColour` says so (a terminal, no
 * `NO_COLOR`, `TERM` not `dumb`).
 * @param writer Where the lines go.
 * @param env The environment.
 * @returns The log function.
 */
export function terminalLog(
  writer: Writer,
  env: Readonly<Record<string, string | undefined>>,
): LineLog {
  return lineLog(writer, { colour: useColour(writer, env) });
}

function safe(text: string): string {
  return maskCredentials(visible(text));
}

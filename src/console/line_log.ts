/**
 * chant-wave's own log lines: one function that writes one line to a writer with
 * every unsafe character made visible (SPEC.md §14), so whatever untrusted value a
 * line quotes cannot break it in two or drive the terminal. Credentials in URLs
 * are masked on the way. It formats nothing else.
 * @module
 */

import { maskCredentials } from "./mask_credentials.ts";
import { visible } from "./visible.ts";
import type { Writer } from "./writer.ts";

/** Writes one log line (no line end in it). */
export type LineLog = (line: string) => void;

/**
 * Makes the log of one writer: each call writes `visible(line)` and a newline in
 * one `write`, with credentials in URLs masked.
 * @param writer Where the lines go (stderr in the CLI).
 * @returns The log function.
 * @example
 * ```ts
 * const out = memoryWriter();
 * lineLog(out)("summary: a\nthen approve: x");
 * out.text(); // "summary: a\\nthen approve: x\n"
 * ```
 */
export function lineLog(writer: Writer): LineLog {
  return (line) => writer.write(`${maskCredentials(visible(line))}\n`);
}

/**
 * The writer every byte chant-wave prints goes through (SPEC.md §14): it masks
 * credentials in URLs with `maskCredentials`, so no line, `--json` result or
 * error on stdout or stderr shows a token, whichever module wrote it; and no
 * line of chant-wave's own can be read by a runner as a workflow command,
 * whatever value it quotes (a line that starts with `::` after its indent, or
 * holds the legacy `##[`, on GitHub and Forgejo). Bytes (a step's output,
 * each line behind its `[phase] step | ` prefix) are scanned for `://` first
 * and pass through untouched without one, so the step console keeps its speed.
 * @module
 */

import { Buffer } from "node:buffer";
import { maskCredentials } from "./visible.ts";
import type { Writer } from "./writer.ts";

const SCHEME_MARK = Buffer.from("://");
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Wraps a writer so that everything written through it has its URLs masked.
 * A write is masked as a whole: the callers write whole lines (the line log,
 * the step console's batches, one JSON result), so a URL is never split
 * between two writes.
 * @param writer The writer to wrap.
 * @returns A writer with the same `isTerminal` and, when `writer` has one, a
 *   `writeBytes` that copies nothing unless the bytes hold `://`.
 * @example
 * ```ts
 * const out = memoryWriter();
 * maskingWriter(out).write('{"url":"https://h/x?private_token=abc"}\n');
 * out.text(); // '{"url":"https://h/x?private_token=***"}\n'
 * ```
 */
export function maskingWriter(writer: Writer): Writer {
  const write = (text: string) =>
    writer.write(noWorkflowCommands(maskCredentials(text)));
  const writeBytes = writer.writeBytes?.bind(writer);
  return {
    ...(writer.isTerminal === undefined
      ? {}
      : { isTerminal: writer.isTerminal }),
    write,
    ...(writeBytes === undefined ? {} : {
      writeBytes(bytes: Uint8Array): void {
        const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        if (view.indexOf(SCHEME_MARK) < 0) writeBytes(bytes);
        else write(decoder.decode(bytes));
      },
    }),
  };
}

/** A line that starts with `::` after its indent, the start of its colons. */
const COMMAND_START = /^([ \t]*):(?=:)/gm;

/**
 * Text whose lines no GitHub or Forgejo runner reads as a workflow command:
 * a leading `::` (after spaces and tabs) has its first colon shown as `\x3a`,
 * and every `##[` its first `#` as `\u0023` (an escape that leaves a JSON
 * string's value as it was, and `##[` can only stand in a string of JSON).
 * @param text What is about to be written: whole lines.
 * @returns The text, unchanged (no copy) when it holds neither.
 * @example
 * ```ts
 * noWorkflowCommands("  ::notice::approved"); // "  \\x3a:notice::approved"
 * ```
 */
export function noWorkflowCommands(text: string): string {
  const colons = text.includes("::");
  const legacy = text.includes("##[");
  if (!colons && !legacy) return text;
  let out = colons ? text.replace(COMMAND_START, "$1\\x3a") : text;
  if (legacy) out = out.replaceAll("##[", "\\u0023#[");
  return out;
}

/**
 * The step console of SPEC.md §7: prints a step's output lines as
 * `[<phase>] <target> | <line>` and its heartbeat as
 * `[<phase>] <target>: still running after <n>s`. It formats and writes; it does
 * not split bytes into lines or keep time (`run_step.ts` does). What the step
 * wrote is shown with its control characters made visible and invalid UTF-8
 * replaced; a plain line (printable ASCII and tabs) is copied as bytes.
 * @module
 */

import { Buffer } from "node:buffer";
import { visible } from "./visible.ts";
import type { Writer } from "./writer.ts";

/**
 * Formats one output line of a step, without a line end.
 * @param phase `plan`, `apply` or `hook`.
 * @param target The run's target (or a whole-wave label).
 * @param line The line the step printed, without its line end.
 * @returns The console line.
 * @example
 * ```ts
 * formatStepLine("plan", "prod-eu", "2 to add"); // "[plan] prod-eu | 2 to add"
 * ```
 */
export function formatStepLine(
  phase: string,
  target: string,
  line: string,
): string {
  return `${linePrefix(phase, target)}${visible(line)}`;
}

/**
 * Formats a heartbeat line, without a line end.
 * @param phase `plan`, `apply` or `hook`.
 * @param target The run's target.
 * @param elapsedMs How long the step has run; printed in whole seconds, rounded down.
 * @returns The console line.
 * @example
 * ```ts
 * formatHeartbeat("apply", "prod-eu", 60_500); // "[apply] prod-eu: still running after 60s"
 * ```
 */
export function formatHeartbeat(
  phase: string,
  target: string,
  elapsedMs: number,
): string {
  const seconds = Math.floor(Math.max(0, elapsedMs) / 1000);
  return `[${phase}] ${visible(target)}: still running after ${seconds}s`;
}

/** Prints one step's lines and heartbeats to a writer. */
export interface StepConsole {
  /**
   * Adds a line the step wrote to the batch, prefixed, with its control
   * characters made visible (SPEC.md §14) and invalid UTF-8 replaced.
   * @param bytes Holds the line; read during the call only.
   * @param start Where the line starts in `bytes`.
   * @param end Where it ends (exclusive), without its line end.
   * @param plain True only when every byte is printable ASCII or a tab (the
   * line is then copied as it is).
   */
  line(bytes: Uint8Array, start: number, end: number, plain: boolean): void;
  /**
   * Writes the batch in ONE `writer` call (or, for a batch past the buffer's
   * bound, in calls that each end with a whole line), so lines of parallel
   * steps never mix within a line.
   * @returns Whether anything was written.
   */
  flush(): boolean;
  /**
   * Prints a heartbeat line in one `writer.write` call.
   * @param elapsedMs How long the step has run.
   */
  heartbeat(elapsedMs: number): void;
}

/** A batch past this many bytes is written before it grows further. */
const BATCH_BYTES = 256 * 1024;

const encoder = new TextEncoder();
// Stateless: it only ever decodes whole lines (never with `stream: true`).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Creates the console of one step. Its buffer starts small and grows to the
 * largest batch (at most {@linkcode BATCH_BYTES} plus one line).
 * @param writer Where the lines go (chant-wave's stderr in the CLI); its
 * `writeBytes` is used when it has one.
 * @param phase `plan`, `apply` or `hook`.
 * @param target The run's target.
 * @returns The step console.
 */
export function stepConsole(
  writer: Writer,
  phase: string,
  target: string,
): StepConsole {
  const prefix = encoder.encode(linePrefix(phase, target));
  let out = new Uint8Array(0);
  let used = 0;
  // A Buffer view of the last `bytes` seen, for `copy` (no view per line).
  let source: Uint8Array | undefined;
  let sourceView: Buffer = Buffer.alloc(0);
  const write = (bytes: Uint8Array) =>
    writer.writeBytes
      ? writer.writeBytes(bytes)
      : writer.write(decoder.decode(bytes));
  const flush = (): boolean => {
    if (used === 0) return false;
    write(out.subarray(0, used));
    used = 0;
    return true;
  };
  const reserve = (size: number) => {
    if (used + size <= out.length) return;
    if (used >= BATCH_BYTES) flush();
    if (used + size > out.length) {
      const grown = new Uint8Array(
        Math.max(used + size, Math.min(out.length * 2, BATCH_BYTES + size)),
      );
      grown.set(out.subarray(0, used));
      out = grown;
    }
  };
  return {
    line(bytes, start, end, plain) {
      if (!plain) {
        const text = visible(decoder.decode(bytes.subarray(start, end)));
        // UTF-16 to UTF-8 takes at most 3 bytes per code unit.
        reserve(prefix.length + text.length * 3 + 1);
        out.set(prefix, used);
        used += prefix.length;
        used += encoder.encodeInto(text, out.subarray(used)).written;
        out[used++] = 10;
        return;
      }
      reserve(prefix.length + end - start + 1);
      // A short loop beats a native call per line for the prefix.
      for (let i = 0; i < prefix.length; i++) out[used + i] = prefix[i];
      used += prefix.length;
      if (bytes !== source) {
        source = bytes;
        sourceView = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      }
      used += sourceView.copy(out, used, start, end);
      out[used++] = 10;
    },
    flush,
    heartbeat(elapsedMs: number): void {
      flush();
      writer.write(formatHeartbeat(phase, target, elapsedMs) + "\n");
    },
  };
}

/** `[<phase>] <target> | `, the target made visible. */
function linePrefix(phase: string, target: string): string {
  return `[${phase}] ${visible(target)} | `;
}

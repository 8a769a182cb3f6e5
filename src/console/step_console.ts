/**
 * The step console of SPEC.md §7: prints a step's output lines as
 * `[<phase>] <target> | <line>` and its heartbeat as
 * `[<phase>] <target>: still running after <n>s`. It formats and writes; it does
 * not split bytes into lines or keep time (`run_step.ts` does). What the step
 * wrote is shown with its control characters made visible.
 * @module
 */

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
  return `[${phase}] ${visible(target)} | ${visible(line)}`;
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
   * Prints lines the step wrote, each prefixed and with its control characters
   * made visible (SPEC.md §14), in ONE `writer.write` call, so lines of parallel
   * steps never mix within a line (and a batch stays together).
   * @param lines Lines without line ends; nothing is written for an empty array.
   */
  lines(lines: readonly string[]): void;
  /**
   * Prints a heartbeat line in one `writer.write` call.
   * @param elapsedMs How long the step has run.
   */
  heartbeat(elapsedMs: number): void;
}

/**
 * Creates the console of one step.
 * @param writer Where the lines go (chant-wave's stderr in the CLI).
 * @param phase `plan`, `apply` or `hook`.
 * @param target The run's target.
 * @returns The step console.
 */
export function stepConsole(
  writer: Writer,
  phase: string,
  target: string,
): StepConsole {
  const prefix = `[${phase}] ${visible(target)} | `;
  return {
    lines(lines: readonly string[]): void {
      if (lines.length === 0) return;
      let text = "";
      for (const line of lines) text += prefix + visible(line) + "\n";
      writer.write(text);
    },
    heartbeat(elapsedMs: number): void {
      writer.write(formatHeartbeat(phase, target, elapsedMs) + "\n");
    },
  };
}

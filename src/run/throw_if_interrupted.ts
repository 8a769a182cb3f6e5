/**
 * The interrupt check a job makes before it records anything more: once SIGINT or
 * SIGTERM arrived (and the children were stopped), the job ends with 130/143.
 * @module
 */

import { OutcomeError } from "../errors.ts";
import type { RunIo } from "./run_io.ts";

/**
 * Stops the job once SIGINT/SIGTERM arrived, before anything more is recorded.
 * @throws {OutcomeError} With 130 or 143.
 */
export function throwIfInterrupted(io: RunIo): void {
  const code = io.interrupts.exitCode;
  if (code !== undefined) {
    throw new OutcomeError(
      code,
      "interrupted: stopped every running command; recorded nothing more",
    );
  }
}

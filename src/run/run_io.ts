/**
 * What a `chant-wave run` job works through: the edges, gathered in one object
 * the CLI builds once (the working directory and environment, the log, the
 * clock, interrupts, git, the ledger and, in tests, the spawner); and the
 * interrupt check a job makes before it records anything more (once SIGINT or
 * SIGTERM arrived and the children were stopped, it ends with 130/143).
 * @module
 */

import type { Clock } from "../clock.ts";
import type { Writer } from "../console/writer.ts";
import type { Interrupts } from "../exec/interrupts.ts";
import type { CollectionPacer } from "../exec/pace_collections.ts";
import type { Spawner } from "../exec/spawner.ts";
import type { Git } from "../git/git.ts";
import type { LedgerMark } from "../ledger/ledger_store.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { OutcomeError } from "../errors.ts";

/** What a wave run may touch. */
export interface RunIo {
  /** The working directory: `.chant/` and `{plan}` paths are relative to it. */
  cwd: string;
  /** The environment the user's commands inherit. */
  env: Record<string, string | undefined>;
  /** The human log and the step console. */
  stderr: Writer;
  clock: Clock;
  /** Stops running steps on SIGINT/SIGTERM. */
  interrupts: Interrupts;
  git: Git;
  ledger: Ledger;
  /**
   * The ledger's mark, once the job is about to run its first command of the
   * change (SPEC.md §4.12): gate reads pass it, so records that reached the
   * ledger since do not loosen anything for this job.
   */
  asOf?: LedgerMark;
  /** The process seam; the real one by default. */
  spawner?: Spawner;
  /**
   * Told of text built outside the log (a large record) and of the end of
   * each stage, to collect garbage between them. @default {none}
   */
  pacer?: CollectionPacer;
}

/** How the user's commands run in one job (flags over wave over top level). */
export interface StepSettings {
  /** Runs planned or applied at once. */
  parallel: number;
  /** Milliseconds; 0 = no timeout. */
  timeoutMs: number;
  /** Milliseconds; 0 = no heartbeat. */
  heartbeatMs: number;
}

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

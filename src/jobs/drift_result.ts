/**
 * What `chant-wave drift` found (SPEC.md §19), as its `--json`, its job
 * summary and its `drift` events read it. Types only: `src/drift/` makes it,
 * the CLI, `summary/` and `notify/` read it; the findings themselves are
 * `plan/drift_report.ts`'s.
 * @module
 */

import type { ExitCode } from "../exit_codes.ts";
import type { DecisionStatus } from "../gate/decision.ts";
import type { WaveDrift } from "../plan/drift_report.ts";

/** One wave's findings, and what its deciding job decided for the plans. */
export interface DriftWave extends WaveDrift {
  /**
   * The gate's status for the plans, as a `run` of the wave would meet it
   * (with `--record`: as recorded; `waiting` means a pending fact stands).
   */
  status: DecisionStatus;
  /** The command that approves the plans, when the gate waits. */
  approve?: string;
}

/** What `drift` found. */
export interface DriftResult {
  /** 0 no drift, 1 a wave did not plan, 5 drift found. */
  exitCode: ExitCode;
  /** The spec's `name`. */
  name: string;
  /** The revision planned (full sha). */
  revision: string;
  /** Whether drifted waves' plans were recorded as pending facts (`--record`). */
  recorded: boolean;
  /** Each wave that planned, in the spec's order. */
  waves: DriftWave[];
  /** The waves that did not plan (a run failed to, or a hold stopped it). */
  failed: { wave: number; name: string; targets: string[] }[];
}

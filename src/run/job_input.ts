/**
 * What one `chant-wave run` job is asked to do, besides the edges it works
 * through (`run_io.ts`): the spec, the job, the settings and the flags that shape
 * it. Types only; every stage of a job reads it.
 * @module
 */

import type { ParseSpecFn } from "../gate/base_spec.ts";
import type { Spec } from "../spec/types.ts";
import type { StepSettings } from "./run_io.ts";
import type { JobSelection } from "./select_job.ts";

/** Everything a job needs besides the edges. */
export interface RunJobInput {
  spec: Spec;
  /** The spec file as the user named it. */
  specFile: string;
  /**
   * The spec file's text as read from the work tree: a job runs HEAD's
   * committed copy, so the two must be equal (a dry run may differ).
   */
  specText?: string;
  selection: JobSelection;
  /** `--base`, when given; otherwise the base is resolved by SPEC.md §4.4. */
  baseFlag?: string;
  settings: StepSettings;
  dryRun: boolean;
  /** `--out-of-order REASON`: run even when the wave before has not applied HEAD. */
  outOfOrder?: string;
  /** The `--ledger` argument that reaches this job's ledger, when not the default. */
  ledgerArg?: string;
  /** Parses the spec as it was at base (`parseSpec`, loaded by the CLI). */
  parseSpec: ParseSpecFn;
}

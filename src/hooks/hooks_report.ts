/**
 * The hooks file every plan, apply and hook command finds at `CHANT_WAVE_HOOKS`
 * (SPEC.md §11): the wave, whether its decision stands approved, and the outcome
 * of each hook that ran so far in this pass of the job, in order. Pure: the
 * shape and its text; writing it is `hooks_file.ts`'s job.
 * @module
 */

import type { HookPoint } from "../spec/types.ts";

/** A hook's outcome. */
export type HookOutcome = "ok" | "failed" | "held";

/** One hook that ran. */
export interface HookReportEntry {
  point: HookPoint;
  name: string;
  outcome: HookOutcome;
}

/** The content of the `CHANT_WAVE_HOOKS` file. */
export interface HooksReport {
  /** The wave's name. */
  wave: string;
  /** The wave's number. */
  k: number;
  /** True once the wave's decision stands approved by a counting approval. */
  approved: boolean;
  hooks: HookReportEntry[];
}

/**
 * The file's text: the report as two-space JSON with a final newline, keys in the
 * order of SPEC.md §11.
 * @param report The report.
 * @returns The text.
 * @example
 * ```ts
 * hooksReportText({ wave: "dev", k: 1, approved: false, hooks: [] });
 * // '{\n  "wave": "dev",\n  "k": 1,\n  "approved": false,\n  "hooks": []\n}\n'
 * ```
 */
export function hooksReportText(report: HooksReport): string {
  const { wave, k, approved, hooks } = report;
  const entries = hooks.map(({ point, name, outcome }) => ({
    point,
    name,
    outcome,
  }));
  return JSON.stringify({ wave, k, approved, hooks: entries }, null, 2) + "\n";
}

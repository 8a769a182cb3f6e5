/**
 * Helpers of the spec tests: spec texts built line by line (so a case's line
 * numbers are its row numbers) and the formatted problems of a parse.
 * @module
 */

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { formatProblem, SpecError } from "../../src/errors.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";

/** Lines 1–5 of {@linkcode wavesSpec}: waves start on line 6. */
export const HEAD: readonly string[] = [
  "{",
  '  "name": "demo",',
  '  "plan": ["plan", "{target}", "{plan}"],',
  '  "apply": ["apply", "{target}", "{plan}"],',
  '  "waves": [',
];

/** A valid spec around the given wave rows; the first row is line 6. */
export function wavesSpec(...waves: string[]): string {
  return [...HEAD, ...waves, "  ]", "}"].join("\n");
}

/** Joins rows into a text; row i is line i + 1. */
export function lines(...rows: string[]): string {
  return rows.join("\n");
}

/**
 * Parses and returns the problems as `file:line:col: where: what` lines, or `[]`
 * when the spec is valid.
 */
export function problemsOf(text: string, file = "w.jsonc"): string[] {
  try {
    parseSpec(text, file);
    return [];
  } catch (error) {
    if (error instanceof SpecError) return error.problems.map(formatProblem);
    throw error;
  }
}

/** A named spec text and the exact problem lines it must give. */
export interface ProblemCase {
  name: string;
  text: string;
  want: string[];
}

/** Runs each case as a step: `problemsOf(text)` must equal `want`. */
export async function runProblemCases(
  t: Deno.TestContext,
  cases: readonly ProblemCase[],
): Promise<void> {
  for (const c of cases) {
    await t.step(c.name, () => expect(problemsOf(c.text)).toEqual(c.want));
  }
}

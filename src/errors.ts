/**
 * The error families of chant-wave: input errors (exit 2, one line, no stack),
 * spec errors (every located problem of a spec file) and outcomes that carry their
 * own exit code. Anything else that is thrown is a bug (exit 1).
 * @module
 */

import { type ExitCode, INVALID_INPUT } from "./exit_codes.ts";

/**
 * Invalid input the user can fix: bad flags, a missing file, an unknown wave.
 * Printed as one `error: …` line plus the optional indented `details`; exit 2.
 */
export class InputError extends Error {
  /** Extra lines printed indented under the message. */
  readonly details: readonly string[];
  /** The exit code the CLI ends with. */
  readonly exitCode: ExitCode = INVALID_INPUT;

  /**
   * Makes an input error.
   * @param message One line: the failed action first, values in quotes.
   * @param details Indented lines printed under the message.
   */
  constructor(message: string, details: readonly string[] = []) {
    super(message);
    this.name = "InputError";
    this.details = details;
  }
}

/** One located problem of a spec file (SPEC.md §3.7). */
export interface SpecProblem {
  /** The spec file as the user named it. */
  file: string;
  /** 1-based line of the offending value (or key). */
  line: number;
  /** 1-based column of the offending value (or key). */
  col: number;
  /** Where in the spec: `wave 2 "prod" runs[3]`, `plan`, `wave 1 "dev" jobs[0] "eu"`. Empty at the top level. */
  where: string;
  /** What is wrong, sentence case, values in quotes. */
  what: string;
}

/**
 * Formats a problem as `<file>:<line>:<col>: <where>: <what>`.
 * @example
 * ```ts
 * formatProblem({ file: "w.jsonc", line: 3, col: 5, where: 'wave 1 "dev"', what: "x" });
 * // 'w.jsonc:3:5: wave 1 "dev": x'
 * ```
 */
export function formatProblem(problem: SpecProblem): string {
  const location = `${problem.file}:${problem.line}:${problem.col}`;
  return problem.where
    ? `${location}: ${problem.where}: ${problem.what}`
    : `${location}: ${problem.what}`;
}

/**
 * A spec that fails SPEC.md §3: carries every problem found, the first one as the
 * message. Exit 2.
 */
export class SpecError extends InputError {
  /** Every problem, in file order. */
  readonly problems: readonly SpecProblem[];

  /**
   * Makes a spec error headed by the first problem.
   * @param problems At least one problem, in file order.
   */
  constructor(problems: readonly SpecProblem[]) {
    const lines = problems.map(formatProblem);
    super(lines[0] ?? "the spec is invalid", lines.slice(1));
    this.name = "SpecError";
    this.problems = problems;
  }
}

/**
 * A domain outcome that ends the command with a specific exit code and a message,
 * without being a bug: waiting (3), moved plans (4), failed runs (1).
 */
export class OutcomeError extends Error {
  /** The exit code the CLI ends with. */
  readonly exitCode: ExitCode;
  /** Extra lines printed indented under the message. */
  readonly details: readonly string[];

  /**
   * Makes an outcome error.
   * @param exitCode The code to exit with.
   * @param message One line.
   * @param details Indented lines printed under the message.
   */
  constructor(
    exitCode: ExitCode,
    message: string,
    details: readonly string[] = [],
  ) {
    super(message);
    this.name = "OutcomeError";
    this.exitCode = exitCode;
    this.details = details;
  }
}

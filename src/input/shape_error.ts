/**
 * The one error of input that crossed a boundary (STYLE.md, "One reader for
 * what crossed a boundary"): a file, an artifact, a child's output or a forge
 * answer that is not of the form chant-wave reads. It names the source and the
 * field. Anything else a reader throws (a `TypeError`) is a bug, never bad input.
 * @module
 */

import { InputError } from "../errors.ts";

/**
 * Input of the wrong form: `<source>: <field> <what>`, e.g.
 * `x.json: "runs[0].attempt" is not a whole number of at least 1: 0`. As an
 * {@linkcode InputError} it ends the CLI with exit 2, one line, no stack, unless
 * the caller turns it into the outcome it stands for (a bad plan file fails its
 * run, a bad forge answer is a forge error).
 */
export class ShapeError extends InputError {
  /** How the input is named (`x.json`, `run locator`); empty when the caller names it. */
  readonly source: string;
  /** Where in the input (`"runs[0].target"`, `[2].user.login`); empty for the whole input. */
  readonly field: string;
  /** What is wrong (`is not a string: 7`, `has no "planDigest"`). */
  readonly what: string;
  /** The message without its source: `<field> <what>`. */
  readonly detail: string;

  /**
   * Makes the error.
   * @param field Where in the input, as messages show it; `""` for the whole.
   * @param what What is wrong, sentence case, values quoted.
   * @param source How the input is named; `""` when the caller names it.
   */
  constructor(field: string, what: string, source = "") {
    const detail = field ? `${field} ${what}` : what;
    super(source ? `${source}: ${detail}` : detail);
    this.name = "ShapeError";
    this.source = source;
    this.field = field;
    this.what = what;
    this.detail = detail;
  }

  /**
   * The same problem, named by `source` (in front of any source it had).
   * @param source How the caller names the input.
   * @returns A new error.
   * @example
   * ```ts
   * new ShapeError("", "is not JSON").from("x.json").message; // "x.json: is not JSON"
   * ```
   */
  from(source: string): ShapeError {
    const named = this.source ? `${source}: ${this.source}` : source;
    return new ShapeError(this.field, this.what, named);
  }
}

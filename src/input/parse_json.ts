/**
 * Parses untrusted JSON text for the input reader (`json_reader.ts`): a syntax
 * error is its `ShapeError`, naming the source; any other error is a bug and
 * is thrown as it is. Pure: the caller reads the text within its bound.
 * @module
 */

import { ShapeError } from "./shape_error.ts";

/** Options of {@linkcode parseJson}. */
export interface ParseJsonOptions {
  /** How messages name the input. @default {""} */
  source?: string;
  /** What a syntax error says, before the parser's detail. @default {"is not JSON"} */
  invalid?: string;
}

/**
 * Parses untrusted JSON text.
 * @param text The text, already read within its bound.
 * @param options How the input is named.
 * @returns The value, still `unknown`: read it with a {@linkcode JsonReader}.
 * @throws {ShapeError} `is not JSON: <the parser's detail>`.
 * @example
 * ```ts
 * parseJson('{"a":1}'); // { a: 1 }
 * parseJson("{", { source: "x.json" }); // throws ShapeError "x.json: is not JSON: …"
 * ```
 */
export function parseJson(
  text: string,
  options: ParseJsonOptions = {},
): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ShapeError(
      "",
      `${options.invalid ?? "is not JSON"}: ${error.message}`,
      options.source,
    );
  }
}

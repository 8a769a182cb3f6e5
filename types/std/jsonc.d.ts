/** Types for `@std/jsonc` (npm mirror `deno-std`). */

/** A JSON value. */
export type JsonValue =
  | { [key: string]: JsonValue | undefined }
  | JsonValue[]
  | string
  | number
  | boolean
  | null;

/**
 * Parses JSON with comments and trailing commas.
 * @throws {SyntaxError} `… at position N` when the text is not JSONC.
 */
export function parse(text: string): JsonValue;

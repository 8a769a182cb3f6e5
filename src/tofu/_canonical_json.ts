/**
 * Canonical JSON of a parsed plan value: object keys sorted by UTF-16 code units
 * at every level, no whitespace, strings as `JSON.stringify` writes them, numbers
 * in their canonical decimal text. Written piece by piece to a sink, so a large
 * value is hashed without first being held as one string. Pure.
 * @module
 */

import { ExactNumber, type JsonValue } from "./_exact_json.ts";

/**
 * Writes `value` as canonical JSON to `write`.
 * @param value A value from `parseTopObject` (or built of the same kinds).
 * @param write Receives the text in pieces, in order.
 * @example
 * ```ts
 * let text = "";
 * writeCanonical({ b: [true, null], a: "x" }, (piece) => text += piece);
 * text; // '{"a":"x","b":[true,null]}'
 * ```
 */
export function writeCanonical(
  value: JsonValue,
  write: (piece: string) => void,
): void {
  if (value === null || typeof value === "boolean") {
    write(String(value));
  } else if (typeof value === "string") {
    write(JSON.stringify(value));
  } else if (value instanceof ExactNumber) {
    write(value.text);
  } else if (Array.isArray(value)) {
    write("[");
    value.forEach((item, i) => {
      if (i > 0) write(",");
      writeCanonical(item, write);
    });
    write("]");
  } else {
    write("{");
    Object.keys(value).sort().forEach((key, i) => {
      write(i > 0 ? `,${JSON.stringify(key)}:` : `${JSON.stringify(key)}:`);
      writeCanonical(value[key], write);
    });
    write("}");
  }
}

/**
 * The canonical JSON of `value` as one string (for small values and tests).
 * @param value The value.
 * @returns Its canonical JSON.
 * @example
 * ```ts
 * canonicalJson({ z: 1 === 1, a: [] }); // '{"a":[],"z":true}'
 * ```
 */
export function canonicalJson(value: JsonValue): string {
  const pieces: string[] = [];
  writeCanonical(value, (piece) => pieces.push(piece));
  return pieces.join("");
}

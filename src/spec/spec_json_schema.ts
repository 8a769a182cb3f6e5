/**
 * The JSON Schema of the spec file, generated from the same zod schema the runner
 * validates with (SPEC.md §3), for editors and `chant-wave schema`. It describes
 * the shape only; the semantic rules (unique names, group matching, placeholders)
 * are the runner's. The root picks the plain spec or the compatibility wrapper
 * with `if`/`then`/`else` on `waves` being an object, so an editor validates
 * against one of them and reports the real error, never "matches no schema of
 * anyOf".
 * @module
 */

import * as z from "zod";
import { specFileSchema } from "./spec_schema.ts";

/**
 * Generates the JSON Schema (draft 2020-12) of a spec file: a plain spec
 * (`$defs/Spec`), or the compatibility wrapper (`$defs/WrappedSpec`) when
 * `waves` is an object; `"$schema"` allowed, defaults shown, every field
 * described.
 * @returns A fresh JSON Schema object.
 * @example
 * ```ts
 * JSON.stringify(specJsonSchema(), null, 2); // what `chant-wave schema` prints
 * ```
 */
export function specJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(specFileSchema, { io: "input" }) as Record<
    string,
    unknown
  >;
  return {
    $schema: schema.$schema,
    title: "chant-wave spec",
    description:
      "The waves file of chant-wave (docs/spec.md; chant-wave help spec)",
    if: {
      type: "object",
      properties: {
        waves: {
          type: "object",
          description: "An object here means the compatibility wrapper",
        },
      },
      required: ["waves"],
    },
    then: { $ref: "#/$defs/WrappedSpec" },
    else: { $ref: "#/$defs/Spec" },
    $defs: schema.$defs,
  };
}

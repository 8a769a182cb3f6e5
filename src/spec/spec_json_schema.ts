/**
 * The JSON Schema of the spec file, generated from the same zod schema the runner
 * validates with (SPEC.md §3), for editors and `chant-wave schema`. It describes
 * the shape only; the semantic rules (unique names, group matching, placeholders)
 * are the runner's.
 * @module
 */

import * as z from "zod";
import { specFileSchema } from "./spec_schema.ts";

/**
 * Generates the JSON Schema (draft 2020-12) of a spec file: a plain spec or the
 * compatibility wrapper, `"$schema"` allowed, defaults shown.
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
    description: "The waves file of chant-wave (SPEC.md §3)",
    ...Object.fromEntries(
      Object.entries(schema).filter(([key]) => key !== "$schema"),
    ),
  };
}

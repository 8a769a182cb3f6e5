/**
 * Writes `examples/waves.schema.json` from the spec's zod schema, so the example
 * spec's `"$schema"` gives editors completion. Run after changing the schema:
 * `deno run --allow-write scripts/write_schema.ts`. A test keeps the committed
 * file equal to the generated one.
 * @module
 */

import { specJsonSchema } from "../src/spec/spec_schema.ts";

/** The committed JSON Schema file. */
export const SCHEMA_FILE: URL = new URL(
  "../examples/waves.schema.json",
  import.meta.url,
);

/**
 * The exact text of the schema file: two-space JSON and a final newline.
 * @returns The text `examples/waves.schema.json` must hold.
 */
export function schemaFileText(): string {
  return `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
}

if (import.meta.main) {
  await Deno.writeTextFile(SCHEMA_FILE, schemaFileText());
  console.error(`wrote ${SCHEMA_FILE.pathname}`);
}

/**
 * `chant-wave schema`: prints the JSON Schema of the spec, generated from the same
 * zod schema the runner validates with, for editors.
 * @module
 */

import { OK } from "../exit_codes.ts";
import type { Command } from "./io.ts";
import { parseFlags } from "./_flags.ts";

/** The `schema` command. */
export const schemaCommand: Command = {
  name: "schema",
  summary: "print the spec's JSON Schema",
  usage: [""],
  about: [
    "Prints the JSON Schema of the waves file on stdout; point the spec's",
    '"$schema" key at a saved copy so editors complete and check it:',
    '{ "$schema": "./waves.schema.json", "name": …, "waves": […] }.',
    "Every field has a description; the compatibility wrapper",
    '{ "waves": <spec>, "options": <pipeline> } is accepted too.',
  ].join("\n"),
  examples: [
    "chant-wave schema > waves.schema.json   # save it beside the spec",
    "chant-wave schema > .vscode/chant-wave.schema.json   # for json.schemas",
  ],
  flags: [],
  async run(argv, io) {
    parseFlags("schema", argv, schemaCommand.flags);
    const { specJsonSchema } = await import("../spec/spec_schema.ts");
    io.stdout.write(JSON.stringify(specJsonSchema(), null, 2) + "\n");
    return OK;
  },
};

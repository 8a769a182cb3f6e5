/**
 * A small completion model for the renderer tests: a command with a file, a
 * directory, a ledger and a text flag, one with words, one with file arguments.
 * @module
 */

import type { CompletionModel } from "../../src/completion/completion_model.ts";

/** The model. */
export const MODEL: CompletionModel = {
  program: "chant-wave",
  commands: [
    {
      name: "run",
      summary: "plan, gate and apply one wave",
      flags: [
        { name: "spec", value: "file", description: "the waves file" },
        { name: "wave", value: "text", description: "the wave" },
        { name: "ledger", value: "ledger", description: "git or a directory" },
        { name: "json", description: "print the result: it's [JSON]" },
      ],
      words: [],
      files: false,
    },
    {
      name: "pipeline",
      summary: "render the CI pipeline",
      flags: [
        { name: "spec", value: "file", description: "the waves file" },
        { name: "out", value: "directory", description: "the root" },
      ],
      words: ["github", "gitlab", "forgejo"],
      files: false,
    },
    {
      name: "plan-file",
      summary: "turn a plan into a plan file",
      flags: [{ name: "json", description: "also print it" }],
      words: ["opentofu", "terraform"],
      files: true,
    },
  ],
};

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Command } from "../../src/cli/io.ts";
import { commandHelpText } from "../../src/cli/_help_text.ts";

const DEMO: Command = {
  name: "demo",
  summary: "a demo",
  usage: ["NAME | --spec [--json]"],
  about: "Does things.",
  notes: "exit: 0 done",
  examples: ["chant-wave demo x", "chant-wave demo --spec w.jsonc"],
  flags: [
    { name: "spec", value: { name: "F", kind: "file" }, description: "spec" },
    { name: "json", description: "print it" },
  ],
  run: () => Promise.resolve(0),
};

Deno.test("commandHelpText() shows the usage, what it does, the flag table, the notes and the examples", async (t) => {
  await t.step("with flags and notes", () => {
    expect(commandHelpText(DEMO)).toBe(
      [
        "usage: chant-wave demo NAME | --spec F [--json]",
        "",
        "Does things.",
        "",
        "  --spec F   spec",
        "  --json     print it",
        "",
        "exit: 0 done",
        "",
        "EXAMPLES",
        "  chant-wave demo x",
        "  chant-wave demo --spec w.jsonc",
        "",
      ].join("\n"),
    );
  });
  await t.step("without either", () => {
    const { notes: _, ...bare } = DEMO;
    expect(commandHelpText({ ...bare, usage: [""], flags: [] })).toBe(
      [
        "usage: chant-wave demo",
        "",
        "Does things.",
        "",
        "EXAMPLES",
        "  chant-wave demo x",
        "  chant-wave demo --spec w.jsonc",
        "",
      ].join("\n"),
    );
  });
});

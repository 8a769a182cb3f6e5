// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Command } from "../../src/cli/command.ts";
import { COMMANDS } from "../../src/cli/main.ts";
import {
  completionModel,
  flagDescription,
} from "../../src/cli/_completion_model.ts";

const COMMAND: Command = {
  name: "demo",
  summary: "a demo",
  usage: "chant-wave demo --spec F [--out DIR] [--json]",
  help: [
    "Does things.",
    "",
    "  --spec F    the waves file",
    "  --out DIR   the root to write under (default: the",
    "              working directory)",
    "  --json      print the result",
    "    --nested  not a flag line of its own",
  ].join("\n"),
  examples: [],
  flags: { strings: ["spec", "out"], booleans: ["json", "check"] },
  words: ["a", "b"],
  run: () => Promise.resolve(0),
};

Deno.test("flagDescription() reads a flag's line of the help and its continuation", async (t) => {
  await t.step("one line", () => {
    expect(flagDescription(COMMAND, "spec")).toBe("the waves file");
  });
  await t.step("continued", () => {
    expect(flagDescription(COMMAND, "out")).toBe(
      "the root to write under (default: the working directory)",
    );
  });
  await t.step("a flag the help does not explain", () => {
    expect(flagDescription(COMMAND, "check")).toBeUndefined();
  });
});

Deno.test("completionModel() gives each flag its value kind and description", () => {
  const [demo] = completionModel([COMMAND]).commands;
  expect(demo).toEqual({
    name: "demo",
    summary: "a demo",
    flags: [
      { name: "spec", value: "file", description: "the waves file" },
      {
        name: "out",
        value: "directory",
        description: "the root to write under (default: the working directory)",
      },
      { name: "json", description: "print the result" },
      { name: "check", description: "check" },
    ],
    words: ["a", "b"],
    files: false,
  });
});

Deno.test("completionModel() of the real commands: ledgers, topics, files", () => {
  const model = completionModel(COMMANDS);
  const byName = new Map(model.commands.map((c) => [c.name, c]));
  expect(byName.get("approve")?.flags.find((f) => f.name === "ledger")?.value)
    .toBe("ledger");
  expect(byName.get("help")?.words).toContain("exit-codes");
  expect(byName.get("help")?.words).toContain("run");
  expect(byName.get("plan-file")?.files).toBe(true);
  expect(byName.get("run")?.flags.find((f) => f.name === "wave")?.value).toBe(
    "text",
  );
});

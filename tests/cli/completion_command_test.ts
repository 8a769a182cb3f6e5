// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Command } from "../../src/cli/io.ts";
import { COMMANDS } from "../../src/cli/main.ts";
import { completionModel } from "../../src/cli/completion_command.ts";

const COMMAND: Command = {
  name: "demo",
  summary: "a demo",
  usage: ["--spec [--out] [--sign] [--json] [--check]"],
  about: "Does things.",
  examples: [],
  flags: [
    { name: "spec", value: { name: "F", kind: "file" }, description: "spec" },
    {
      name: "out",
      value: { name: "DIR", kind: "directory" },
      description: "the root to write under",
      default: "the\nworking directory",
    },
    { name: "wave", value: { name: "K" }, description: "the wave" },
    {
      name: "sign",
      value: { name: "KEY", kind: "file", optional: true },
      description: "seal it",
    },
    { name: "json", description: "print the result" },
  ],
  words: ["a", "b"],
  run: () => Promise.resolve(0),
};

Deno.test("completionModel() gives each flag of the table its value kind and description", () => {
  const [demo] = completionModel([COMMAND]).commands;
  expect(demo).toEqual({
    name: "demo",
    summary: "a demo",
    flags: [
      { name: "spec", value: "file", description: "spec" },
      {
        name: "out",
        value: "directory",
        description: "the root to write under (default: the working directory)",
      },
      { name: "wave", value: "text", description: "the wave" },
      { name: "sign", description: "seal it" },
      { name: "json", description: "print the result" },
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
  expect(byName.get("approve")?.flags.find((f) => f.name === "sign"))
    .toEqual({
      name: "sign",
      description:
        "seal the approval with an SSH key (ssh-keygen -Y sign); KEY is optional (git's user.signingkey when gpg.format is ssh); write --sign=KEY, or put --sign KEY after NAME GATE",
    });
  expect(byName.get("help")?.words).toContain("exit-codes");
  expect(byName.get("help")?.words).toContain("run");
  expect(byName.get("plan-file")?.files).toBe(true);
  expect(byName.get("run")?.flags.find((f) => f.name === "wave")?.value).toBe(
    "text",
  );
});

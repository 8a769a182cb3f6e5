// Every command's help, examples, flags and completion agree: 2–4 examples that
// parse with the command's own flags, every flag explained in the help and named
// in the usage, and nothing in the usage the parser refuses.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { COMMANDS } from "../../src/cli/main.ts";
import { parseFlags } from "../../src/cli/_flags.ts";
import { flagDescription } from "../../src/cli/_completion_model.ts";
import { commandHelpText } from "../../src/cli/_help_text.ts";

/** Splits a shell line into words, up to a comment, a redirection or a pipe. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? "") + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if ("#>|<".includes(char)) {
      break;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function flagsOf(command: (typeof COMMANDS)[number]): string[] {
  return [
    ...(command.flags.strings ?? []),
    ...(command.flags.booleans ?? []),
  ];
}

Deno.test("every command has 2 to 4 examples that its own flags parse", async (t) => {
  for (const command of COMMANDS) {
    await t.step(command.name, () => {
      expect(command.examples.length).toBeGreaterThanOrEqual(2);
      expect(command.examples.length).toBeLessThanOrEqual(4);
      for (const example of command.examples) {
        const [program, name, ...words] = shellWords(example);
        expect(`${program} ${name}`).toBe(`chant-wave ${command.name}`);
        expect(() => parseFlags(command.name, words, command.flags)).not
          .toThrow();
      }
    });
  }
});

Deno.test("every command's help shows its usage, explains each flag and ends with EXAMPLES", async (t) => {
  for (const command of COMMANDS) {
    await t.step(command.name, () => {
      const text = commandHelpText(command);
      expect(text.startsWith(`usage: ${command.usage}\n`)).toBe(true);
      expect(text).toContain(
        "\nEXAMPLES\n" +
          command.examples.map((example) => `  ${example}\n`).join(""),
      );
      const undescribed = flagsOf(command).filter((flag) =>
        !flagDescription(command, flag)
      );
      expect(undescribed).toEqual([]);
    });
  }
});

Deno.test("every command's usage names exactly the flags it takes", async (t) => {
  for (const command of COMMANDS) {
    await t.step(command.name, () => {
      const named = new Set(
        [...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]),
      );
      expect([...named].sort()).toEqual(flagsOf(command).sort());
    });
  }
});

Deno.test("the command words are unique and none is also a help topic", async () => {
  const names = COMMANDS.map((command) => command.name);
  expect(new Set(names).size).toBe(names.length);
  const { HELP_TOPICS } = await import("../../src/help/help_topics.ts");
  expect(
    names.filter((name) => (HELP_TOPICS as readonly string[]).includes(name)),
  )
    .toEqual([]);
});

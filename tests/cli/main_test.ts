// Every command's help, examples, flags and completion agree: 2–4 examples that
// parse with the command's own flags, every flag listed in the help and named
// in the usage, nothing in the usage the parser refuses, and a flag that several
// commands take keeps one name and value everywhere.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { COMMANDS } from "../../src/cli/main.ts";
import { type Flag, parseFlags } from "../../src/cli/_flags.ts";
import {
  commandHelpText,
  flagHeading,
  usageText,
} from "../../src/cli/_help_text.ts";

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

Deno.test("every command's help shows its usage, lists each flag and ends with EXAMPLES", async (t) => {
  for (const command of COMMANDS) {
    await t.step(command.name, () => {
      const text = commandHelpText(command);
      const usage = usageText(command.name, command.usage, command.flags);
      expect(text.startsWith(`usage: ${usage}\n\n${command.about}\n`)).toBe(
        true,
      );
      expect(text).toContain(
        "\nEXAMPLES\n" +
          command.examples.map((example) => `  ${example}\n`).join(""),
      );
      const unlisted = command.flags.filter((flag) =>
        !text.includes(`\n  ${flagHeading(flag, false)}  `) ||
        flag.description.trim() === ""
      ).map((flag) => flag.name);
      expect(unlisted).toEqual([]);
    });
  }
});

Deno.test("every command's usage names exactly the flags it takes", async (t) => {
  for (const command of COMMANDS) {
    await t.step(command.name, () => {
      const usage = usageText(command.name, command.usage, command.flags);
      const named = new Set(
        [...usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]),
      );
      expect([...named].sort()).toEqual(
        command.flags.map((flag) => flag.name).sort(),
      );
    });
  }
});

Deno.test("a flag several commands take has one value everywhere", () => {
  const seen = new Map<string, Flag["value"]>();
  const differing: string[] = [];
  for (const command of COMMANDS) {
    for (const flag of command.flags) {
      if (!seen.has(flag.name)) seen.set(flag.name, flag.value);
      else if (
        JSON.stringify(seen.get(flag.name)) !== JSON.stringify(flag.value)
      ) differing.push(`${command.name} --${flag.name}`);
    }
  }
  expect(differing).toEqual([]);
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

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Command } from "../../src/cli/io.ts";
import {
  commandHelpText,
  flagHeading,
  flagList,
  flagText,
  usageText,
} from "../../src/cli/_help_text.ts";
import type { FlagTable } from "../../src/cli/_flags.ts";

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

Deno.test("flagList() aligns the texts three spaces past the widest heading", () => {
  expect(flagList([
    { name: "spec", value: { name: "F" }, description: "the waves file" },
    {
      name: "out",
      value: { name: "DIR" },
      description: "the root to write under",
      default: "the\nworking directory",
    },
    { name: "json", description: "print it\non stdout" },
  ])).toBe(
    [
      "  --spec F    the waves file",
      "  --out DIR   the root to write under (default: the",
      "              working directory)",
      "  --json      print it",
      "              on stdout",
    ].join("\n"),
  );
});

Deno.test("flagList() lets a heading past 20 characters run into its text", () => {
  expect(flagList([
    { name: "wave", value: { name: "K" }, description: "the wave" },
    {
      name: "out-of-order",
      value: { name: "REASON" },
      description: "run anyway\neven so",
    },
  ])).toBe(
    [
      "  --wave K   the wave",
      "  --out-of-order REASON  run anyway",
      "             even so",
    ].join("\n"),
  );
});

Deno.test("flagList() of no flags is empty", () => {
  expect(flagList([])).toBe("");
});

Deno.test("flagText() adds the default after the description", () => {
  expect(flagText({ name: "json", description: "print it" })).toBe(
    "print it",
  );
  expect(
    flagText({
      name: "binary",
      value: { name: "B" },
      description: "the program",
      default: '"sqitch"',
    }),
  ).toBe('the program (default: "sqitch")');
});

const TABLE: FlagTable = [
  { name: "spec", value: { name: "F", kind: "file" }, description: "spec" },
  { name: "sign", value: { name: "KEY", optional: true }, description: "s" },
  { name: "dry-run", description: "nothing" },
];

Deno.test("usageText() shows each flag of a form with its value from the table", async (t) => {
  const cases: { name: string; forms: string[]; want: string }[] = [
    {
      name: "flags, brackets and words",
      forms: ["NAME | --spec [--sign] [--dry-run]"],
      want: "chant-wave demo NAME | --spec F [--sign [KEY]] [--dry-run]",
    },
    { name: "no words", forms: [""], want: "chant-wave demo" },
    {
      name: "a form continued on a line under its first word",
      forms: ["--spec\n[--dry-run]"],
      want: "chant-wave demo --spec F\n" +
        "                       [--dry-run]",
    },
    {
      name: "a second form under the first",
      forms: ["a --spec", "b [--dry-run]"],
      want: "chant-wave demo a --spec F\n" +
        "       chant-wave demo b [--dry-run]",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(usageText("demo", c.forms, TABLE)).toBe(c.want);
    });
  }
});

Deno.test("usageText() refuses a form that names a flag the table lacks", () => {
  expect(() => usageText("demo", ["[--json]"], TABLE)).toThrow(
    'usage form "[--json]" names "--json", no flag',
  );
});

Deno.test("flagHeading() brackets an optional value in the usage only", () => {
  expect(flagHeading(TABLE[0], true)).toBe("--spec F");
  expect(flagHeading(TABLE[1], true)).toBe("--sign [KEY]");
  expect(flagHeading(TABLE[1], false)).toBe("--sign KEY");
  expect(flagHeading(TABLE[2], false)).toBe("--dry-run");
});

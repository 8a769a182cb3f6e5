// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { FlagTable } from "../../src/cli/_flags.ts";
import { flagHeading, usageText } from "../../src/cli/_help_text.ts";

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

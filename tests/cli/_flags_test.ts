// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  type FlagTable,
  parseFlags,
  positiveIntFlag,
  requireFlag,
} from "../../src/cli/_flags.ts";
import { InputError } from "../../src/errors.ts";

const TABLE: FlagTable = [
  { name: "spec", value: { name: "F", kind: "file" }, description: "spec" },
  { name: "by", value: { name: "WHO" }, description: "who" },
  { name: "sign", value: { name: "KEY", optional: true }, description: "seal" },
  { name: "json", description: "json" },
];

const parse = (argv: string[]) => parseFlags("demo", argv, TABLE);

Deno.test("parseFlags() reads the flags of the table and the positional words", () => {
  expect(parse(["a", "--spec", "w.jsonc", "b", "--json", "--by=ann"]))
    .toEqual({
      strings: { spec: "w.jsonc", by: "ann" },
      booleans: { json: true, help: false },
      optional: {},
      positionals: ["a", "b"],
    });
});

Deno.test("parseFlags() takes a flag whose value is optional with or without it", async (t) => {
  const cases: { name: string; argv: string[]; want: unknown }[] = [
    { name: "absent", argv: ["tf", "--by", "ann"], want: {} },
    { name: "alone at the end", argv: ["tf", "--sign"], want: { sign: {} } },
    {
      name: "followed by a flag",
      argv: ["tf", "--sign", "--by", "ann"],
      want: { sign: {} },
    },
    {
      name: "with a KEY after it",
      argv: ["tf", "--sign", "~/.ssh/id_ed25519"],
      want: { sign: { value: "~/.ssh/id_ed25519" } },
    },
    {
      name: "with --sign=KEY",
      argv: ["--sign=key::ssh-ed25519 AAAA", "tf"],
      want: { sign: { value: "key::ssh-ed25519 AAAA" } },
    },
    { name: "after --, a word", argv: ["tf", "--", "--sign"], want: {} },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(parse(c.argv).optional).toEqual(c.want));
  }
  await t.step("its KEY is not a positional word, -- is", () => {
    expect(parse(["tf", "--sign", "k", "gate"]).positionals).toEqual([
      "tf",
      "gate",
    ]);
    expect(parse(["tf", "--", "--sign"]).positionals).toEqual(["tf", "--sign"]);
  });
});

Deno.test("parseFlags() refuses what the table does not take, in one line", async (t) => {
  const cases: { name: string; argv: string[]; message: string }[] = [
    {
      name: "a near flag",
      argv: ["--jsno"],
      message: 'unknown flag "--jsno" for "demo"; did you mean "--json"?',
    },
    {
      name: "a near flag with a value",
      argv: ["--sepc=w.jsonc"],
      message: 'unknown flag "--sepc" for "demo"; did you mean "--spec"?',
    },
    {
      name: "a near optional-value flag",
      argv: ["--sing"],
      message: 'unknown flag "--sing" for "demo"; did you mean "--sign"?',
    },
    {
      name: "nothing near",
      argv: ["--zzzzzz"],
      message: 'unknown flag "--zzzzzz" for "demo"; see "chant-wave help demo"',
    },
    {
      name: "a short flag",
      argv: ["-x"],
      message: 'unknown flag "-x" for "demo"; see "chant-wave help demo"',
    },
    {
      name: "a value flag at the end",
      argv: ["--spec"],
      message: 'flag "--spec" needs a value',
    },
    {
      name: "an empty value",
      argv: ["--spec="],
      message: 'flag "--spec" needs a value',
    },
    {
      name: "a negated flag",
      argv: ["--no-sign"],
      message: 'unknown flag "--no-sign" for "demo"; did you mean "--sign"?',
    },
    {
      name: "an optional-value flag twice",
      argv: ["--sign=k", "--sign"],
      message: 'flag "--sign" is given more than once',
    },
    {
      name: "an optional-value flag with an empty value",
      argv: ["--sign="],
      message: 'flag "--sign=" needs a KEY',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(() => parse(c.argv)).toThrow(new InputError(c.message));
    });
  }
});

Deno.test("parseFlags() keeps the last value of a value flag given twice", () => {
  expect(parse(["--spec", "a", "--spec=b"]).strings.spec).toBe("b");
});

Deno.test("parseFlags() always takes --help", () => {
  expect(parseFlags("schema", ["--help"], []).booleans.help).toBe(true);
});

Deno.test("requireFlag() and positiveIntFlag() read a parsed flag or refuse it", () => {
  const flags = parse(["--by", "0"]);
  expect(() => requireFlag("demo", flags, "spec")).toThrow(
    new InputError('"demo" needs "--spec"'),
  );
  expect(requireFlag("demo", flags, "by")).toBe("0");
  expect(positiveIntFlag(parse(["--by", "12"]), "by")).toBe(12);
  expect(positiveIntFlag(flags, "spec")).toBeUndefined();
  expect(() => positiveIntFlag(flags, "by")).toThrow(
    new InputError('flag "--by" takes a whole number of at least 1, not "0"'),
  );
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  baseSpecOf,
  describeGoverning,
  governingWaves,
  rememberingParser,
  sayReads,
} from "../../src/gate/base_spec.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import type { Spec } from "../../src/spec/types.ts";

const TEXT = JSON.stringify({
  name: "x",
  plan: ["p", "{plan}"],
  apply: ["a"],
  waves: [{ name: "dev", runs: ["dev"] }],
});

Deno.test("baseSpecOf() reads a spec at a commit as absent, unparsable or parsed", () => {
  expect(baseSpecOf(undefined, "waves.jsonc", parseSpec)).toEqual({
    status: "absent",
  });
  expect(baseSpecOf("{", "waves.jsonc", parseSpec).status).toBe("unparsable");
  expect(baseSpecOf(TEXT, "waves.jsonc", parseSpec).status).toBe("parsed");
});

Deno.test("rememberingParser() parses each text once, and a failing one each time", async (t) => {
  const parsed: string[] = [];
  const counting = (text: string, file: string): Spec => {
    parsed.push(file);
    return parseSpec(text, file);
  };
  await t.step("a known text is not parsed", () => {
    const known = parseSpec(TEXT, "waves.jsonc");
    const parse = rememberingParser(counting, [{ text: TEXT, spec: known }]);
    expect(parse(TEXT, "at-base.jsonc")).toBe(known);
    expect(parsed).toEqual([]);
  });
  await t.step("a new text is parsed once", () => {
    const parse = rememberingParser(counting);
    const first = parse(TEXT, "a.jsonc");
    expect(parse(TEXT, "b.jsonc")).toBe(first);
    expect(parsed).toEqual(["a.jsonc"]);
  });
  await t.step("a text that fails is parsed again, naming its file", () => {
    parsed.length = 0;
    const parse = rememberingParser(counting);
    expect(() => parse("{", "a.jsonc")).toThrow("a.jsonc");
    expect(() => parse("{", "b.jsonc")).toThrow("b.jsonc");
    expect(parsed).toEqual(["a.jsonc", "b.jsonc"]);
  });
});

const BASE = parseSpec(
  JSON.stringify({
    name: "x",
    plan: ["p", "{plan}"],
    apply: ["a"],
    waves: [
      { name: "dev", gate: "never", runs: ["dev"] },
      { name: "staging", runs: ["st-1", "st-2", "st-3", "st-4", "st-5"] },
      { name: "prod", runs: ["eu"] },
    ],
  }),
  "waves.jsonc",
).waves;

Deno.test("governingWaves() finds waves by name, position and shared target", async (t) => {
  const cases = [
    {
      name: "same name and position",
      wave: { k: 1, name: "dev", targets: [] },
      want: 'wave 1 "dev" by name and position',
    },
    {
      name: "a renamed wave is governed by its position",
      wave: { k: 2, name: "qa", targets: [] },
      want: 'wave 2 "staging" by position',
    },
    {
      name: "a moved wave is governed by its name",
      wave: { k: 4, name: "prod", targets: [] },
      want: 'wave 3 "prod" by name',
    },
    {
      name: "targets are named, at most three",
      wave: { k: 9, name: "new", targets: ["st-5", "st-1", "st-3", "st-2"] },
      want: 'wave 2 "staging" by targets st-1, st-2, st-3 and 1 more',
    },
    {
      name: "a new wave with new targets has none",
      wave: { k: 9, name: "new", targets: ["other"] },
      want: "",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(describeGoverning(governingWaves(BASE, c.wave))).toBe(c.want);
    });
  }
});

Deno.test("sayReads() names the commits of reads alike together, each thing once", async (t) => {
  const read = (at: string, rest = ': wave 1 "dev" by name') => ({
    lead: "read at ",
    at,
    rest,
  });
  await t.step("one read", () => {
    expect(sayReads([read("a")])).toBe('read at a: wave 1 "dev" by name');
  });
  await t.step("three commits read alike", () => {
    expect(sayReads([read("a"), read("b"), read("c")])).toBe(
      'read at a, b and c: wave 1 "dev" by name',
    );
  });
  await t.step("a commit read twice counts once", () => {
    expect(sayReads([read("a"), read("a")])).toBe(
      'read at a: wave 1 "dev" by name',
    );
  });
  await t.step("reads that differ, in order", () => {
    expect(
      sayReads([
        read("a"),
        { lead: "the spec is not in ", at: "b", rest: "" },
        read("c", ': wave 2 "prod" by name'),
        read("d"),
      ]),
    ).toBe(
      'read at a and d: wave 1 "dev" by name; and the spec is not in b; and read at c: wave 2 "prod" by name',
    );
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  baseSpecOf,
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

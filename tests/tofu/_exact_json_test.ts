// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ShapeError } from "../../src/input/shape_error.ts";
import {
  ExactNumber,
  JsonSyntaxError,
  parseTopObject,
} from "../../src/tofu/_exact_json.ts";

Deno.test("parseTopObject() builds the wanted members and checks the rest", async (t) => {
  await t.step("values of every kind", () => {
    const { members, keys } = parseTopObject(
      ' {"a": [true, false, null, "s", -1.25e2, {}], "skip": {"x": [1, 2]}, "b": {"c": 1}}\n',
      new Set(["a", "b"]),
    );
    expect(keys).toEqual(["a", "skip", "b"]);
    expect(Object.keys(members)).toEqual(["a", "b"]);
    expect(members.a).toEqual([
      true,
      false,
      null,
      "s",
      new ExactNumber("-125"),
      {},
    ]);
    expect(Object.getPrototypeOf(members.b)).toBe(null);
  });
  await t.step("a __proto__ key is an ordinary key", () => {
    const { members } = parseTopObject(
      '{"a": {"__proto__": {"polluted": true}}}',
      new Set(["a"]),
    );
    const a = members.a as Record<string, unknown>;
    expect(Object.keys(a)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBe(undefined);
  });
  await t.step("numbers keep their exact value", () => {
    const { members } = parseTopObject(
      '{"n": [12345678901234567891, 0.10000000000000000001]}',
      new Set(["n"]),
    );
    expect(members.n).toEqual([
      new ExactNumber("12345678901234567891"),
      new ExactNumber("0.10000000000000000001"),
    ]);
  });
});

Deno.test("parseTopObject() refuses bad JSON with its line and column", async (t) => {
  const cases: [string, string, string][] = [
    ["empty", "", "unexpected end of input at line 1, column 1"],
    [
      "trailing comma",
      '{"a": 1,}',
      'unexpected character "}" at line 1, column 9',
    ],
    [
      "single quotes",
      "{'a': 1}",
      `unexpected character "'" at line 1, column 2`,
    ],
    [
      "garbage after",
      '{"a": 1} x',
      'unexpected character "x" at line 1, column 10',
    ],
    [
      "a raw newline in a string",
      '{"a": "x\ny"}',
      "control character in a string at line 1, column 9",
    ],
    [
      "a bad escape",
      '{"a": "\\x41"}',
      "invalid escape in a string at line 1, column 8",
    ],
    [
      "a short \\u escape",
      '{"a": "\\u12"}',
      "invalid \\u escape at line 1, column 8",
    ],
    [
      "unterminated string",
      '{"a": "x',
      "unterminated string at line 1, column 9",
    ],
    [
      "leading zero",
      '{"a": 01}',
      'unexpected character "1" at line 1, column 8',
    ],
    ["NaN", '{"a": NaN}', 'unexpected character "N" at line 1, column 7'],
    [
      "repeated key, skipped member",
      '{"skip": {"k": 1, "k": 2}}',
      'key "k" appears twice at line 1, column 19',
    ],
    [
      "a huge exponent",
      '{"a": 1e9999999999}',
      "number out of range at line 1, column 7",
    ],
    [
      "a control character shown",
      '{"a": \u001b}',
      'unexpected character "\\x1b" at line 1, column 7',
    ],
    [
      "on a later line",
      '{\n  "a": 1,\n  "b": ]\n}',
      'unexpected character "]" at line 3, column 8',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      expect(() => parseTopObject(text, new Set(["a"]))).toThrow(message);
      expect(() => parseTopObject(text, new Set(["a"]))).toThrow(
        JsonSyntaxError,
      );
    });
  }
  await t.step("valid JSON that is not an object", () => {
    expect(() => parseTopObject("[1]", new Set())).toThrow(
      new ShapeError("", "is JSON, but not an object"),
    );
  });
});

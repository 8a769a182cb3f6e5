// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  canonicalJson,
  writeCanonical,
} from "../../src/tofu/_canonical_json.ts";
import { parseTopObject } from "../../src/tofu/_exact_json.ts";

function canonicalOf(text: string): string {
  const { members } = parseTopObject(`{"v":${text}}`, new Set(["v"]));
  return canonicalJson(members.v);
}

Deno.test("canonicalJson() sorts keys at every level and drops whitespace", async (t) => {
  const cases: [string, string][] = [
    [
      '{ "b": 1, "a": { "d": [ 3, { "z": 0, "y": null } ], "c": true } }',
      '{"a":{"c":true,"d":[3,{"y":null,"z":0}]},"b":1}',
    ],
    ["[]", "[]"],
    ["{}", "{}"],
    ['"tab\\there \\u00e9 \\ud83d\\ude00"', '"tab\\there é 😀"'],
    ['"\\u0001\\/"', '"\\u0001/"'],
    [
      '{"é": 1, "z": 2, "Z": 3, "aa": 4, "a": 5}',
      '{"Z":3,"a":5,"aa":4,"z":2,"é":1}',
    ],
    ['{"__proto__": {"x": 1}}', '{"__proto__":{"x":1}}'],
    ["[1.50, -0, 1e400]", "[1.5,0,1e+400]"],
  ];
  for (const [input, want] of cases) {
    await t.step(input, () => expect(canonicalOf(input)).toBe(want));
  }
  await t.step("a lone surrogate is escaped, as JSON.stringify does", () => {
    expect(canonicalOf('"\\ud800"')).toBe('"\\ud800"');
  });
});

Deno.test("writeCanonical() hands over the same text in pieces", () => {
  const { members } = parseTopObject(
    '{"v": {"k": [1, "two", {"three": false}]}}',
    new Set(["v"]),
  );
  const pieces: string[] = [];
  writeCanonical(members.v, (piece) => pieces.push(piece));
  expect(pieces.length).toBeGreaterThan(1);
  expect(pieces.join("")).toBe(canonicalJson(members.v));
});

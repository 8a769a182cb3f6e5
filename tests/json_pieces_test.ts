// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { maskingReplacer } from "../src/console/visible.ts";
import { jsonPieces, PIECE_ITEMS } from "../src/json_pieces.ts";

const joined = (value: object) =>
  [...jsonPieces(value, maskingReplacer)].join("");

Deno.test("jsonPieces() joined is JSON.stringify(value, replacer, 2)", async (t) => {
  const cases: [string, object][] = [
    ["an empty object", {}],
    ["an empty list", { members: [] }],
    ["a list of numbers", { a: [1, 2] }],
    ["fields left out", { a: undefined, b: 1, c: () => 1, d: Symbol("x") }],
    ["list items JSON writes as null", { a: [undefined, () => 1, 2] }],
    ["nesting in a list", { a: [{ x: [1, { y: "z\nw" }] }, [], {}] }],
    ["nesting outside a list", { n: null, s: "s", o: { arr: [{}, []] } }],
    ["masked free text", {
      policyReason: "see https://user:secret@example.com/x?token=1",
      members: [{ target: "eu", summary: "https://a:b@c.example/", url: "x" }],
    }],
    ["non-ASCII text", { members: [{ target: "\u{1F600}é\uFFFF" }] }],
  ];
  for (const [name, value] of cases) {
    await t.step(name, () => {
      expect(joined(value)).toBe(JSON.stringify(value, maskingReplacer, 2));
    });
  }
});

Deno.test("jsonPieces() hands a long list over PIECE_ITEMS items a piece", () => {
  const members = Array.from({ length: 5000 }, (_, i) => ({
    target: `t-${i}`,
    planDigest: `sha256:${String(i).padStart(64, "0")}`,
    op: "apply",
  }));
  const decision = { version: 1, members, status: "not-required" };
  const pieces = [...jsonPieces(decision, maskingReplacer)];
  const text = JSON.stringify(decision, maskingReplacer, 2);
  expect(pieces.join("")).toBe(text);
  expect(pieces.length).toBeGreaterThan(members.length / PIECE_ITEMS);
  const longest = Math.max(...pieces.map((piece) => piece.length));
  expect(longest).toBeLessThan(PIECE_ITEMS * 200);
});

Deno.test("jsonPieces() calls the replacer with each item's index in the whole list", () => {
  const list = Array.from({ length: PIECE_ITEMS + 2 }, (_, i) => `v${i}`);
  const calls = (seen: string[]) => (key: string, value: unknown) => {
    if (typeof value === "string") seen.push(`${key}=${value}`);
    return value === `v${PIECE_ITEMS + 1}` ? undefined : value;
  };
  const byPieces: string[] = [];
  const whole: string[] = [];
  const text = [...jsonPieces({ list }, calls(byPieces))].join("");
  expect(text).toBe(JSON.stringify({ list }, calls(whole), 2));
  expect(byPieces).toEqual(whole);
  expect(byPieces.at(-1)).toBe(`${PIECE_ITEMS + 1}=v${PIECE_ITEMS + 1}`);
  expect(text).toContain("null");
});

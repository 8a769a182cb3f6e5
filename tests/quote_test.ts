// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { quote, quoteValue } from "../src/quote.ts";

Deno.test("quote() escapes and cuts what the user wrote to 60 characters", () => {
  expect(quote("shares")).toBe('"shares"');
  expect(quote("a\u001b[2Jb")).toBe('"a\\u001b[2Jb"');
  const long = quote("k".repeat(1_000_000));
  expect(long).toBe(`"${"k".repeat(59)}…"`);
});

Deno.test("quoteValue() shows any parsed value as JSON, cut like quote()", async (t) => {
  const cases: [string, unknown, string][] = [
    ["a string", "eu", '"eu"'],
    ["a number", 7, "7"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["an object", { a: [1] }, '{"a":[1]}'],
    ["a long list", Array(100).fill(1), `[${"1,".repeat(29)}…`],
    ["a control character in an object", { a: "\u001b" }, '{"a":"\\u001b"}'],
  ];
  for (const [name, value, shown] of cases) {
    await t.step(name, () => expect(quoteValue(value)).toBe(shown));
  }
});

Deno.test("quote() never cuts a surrogate pair in half", () => {
  const text = "a".repeat(58) + "😀" + "b".repeat(10);
  expect(quote(text)).toBe(`"${"a".repeat(58)}…"`);
});

// @ts-types="../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { quote } from "../src/quote.ts";

Deno.test("quote() escapes and cuts what the user wrote to 60 characters", () => {
  expect(quote("shares")).toBe('"shares"');
  expect(quote("a\u001b[2Jb")).toBe('"a\\u001b[2Jb"');
  const long = quote("k".repeat(1_000_000));
  expect(long).toBe(`"${"k".repeat(59)}…"`);
});

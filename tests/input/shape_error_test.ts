// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ShapeError } from "../../src/input/shape_error.ts";

Deno.test("ShapeError.from() names the source in front of any it had", () => {
  const bare = new ShapeError('"a"', "is not a string");
  expect(bare.message).toBe('"a" is not a string');
  expect(bare.from("x.json").message).toBe('x.json: "a" is not a string');
  expect(bare.from("x.json").from("ledger").message).toBe(
    'ledger: x.json: "a" is not a string',
  );
  expect(bare.from("x.json").exitCode).toBe(2);
  expect(bare.from("x.json").detail).toBe('"a" is not a string');
});

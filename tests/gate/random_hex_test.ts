// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  counterRandomBytes,
  randomHex,
  webRandomBytes,
} from "../../src/gate/random_hex.ts";

Deno.test("randomHex() formats the drawn bytes as lowercase hex", () => {
  expect(randomHex(3, () => new Uint8Array([0, 15, 255]))).toBe("000fff");
  expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
  expect(randomHex(8, webRandomBytes)).not.toBe(randomHex(8, webRandomBytes));
});

Deno.test("randomHex() refuses a source that returns the wrong length", () => {
  expect(() => randomHex(4, () => new Uint8Array(2))).toThrow(
    "random source returned 2 bytes, expected 4",
  );
});

Deno.test("counterRandomBytes() draws distinct, predictable values", () => {
  const random = counterRandomBytes(255);
  expect(randomHex(2, random)).toBe("00ff");
  expect(randomHex(2, random)).toBe("0100");
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { canonicalNumber } from "../../src/tofu/_canonical_number.ts";

Deno.test("canonicalNumber() writes equal values alike and keeps every digit", async (t) => {
  const cases: [string, string | undefined][] = [
    ["0", "0"],
    ["-0", "0"],
    ["-0.000e7", "0"],
    ["10", "10"],
    ["1.50", "1.5"],
    ["15e-1", "1.5"],
    ["1.0e1", "10"],
    ["-42", "-42"],
    ["0.000001", "0.000001"],
    ["1e-7", "1e-7"],
    ["123e-9", "1.23e-7"],
    ["1e21", "1e+21"],
    ["100000000000000000000", "100000000000000000000"],
    ["12345678901234567891", "12345678901234567891"],
    ["1.2345678901234567891e30", "1.2345678901234567891e+30"],
    ["1E+0002", "100"],
    ["1e0000000000001", "10"],
    ["1e1234567890", undefined],
    ["01", undefined],
  ];
  for (const [lexeme, want] of cases) {
    await t.step(lexeme, () => expect(canonicalNumber(lexeme)).toBe(want));
  }
  await t.step("matches JSON.stringify for numbers a double holds", () => {
    for (const n of [0.1, 123.456, 5e-324, 1.7976931348623157e308, 2 ** 53]) {
      expect(canonicalNumber(String(n))).toBe(JSON.stringify(n));
      expect(canonicalNumber(n.toExponential())).toBe(JSON.stringify(n));
    }
  });
});

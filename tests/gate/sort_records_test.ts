// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { compareRecords, sortRecords } from "../../src/gate/screen_records.ts";
import { approval, claim, expired, pending } from "../ledger/_records.ts";

Deno.test("sortRecords() orders by timestamp, ties by id", () => {
  const records = [
    approval("b", 2),
    expired("z", 1),
    pending("a", 3),
    claim("a", 2, "b", "dec-1", []),
    approval("c", 2),
  ];
  expect(sortRecords(records).map((r) => `${r.kind}:${r.id}`)).toEqual([
    "expired:z",
    "claim:a",
    "approval:b",
    "approval:c",
    "pending:a",
  ]);
  expect(records[0].id).toBe("b"); // the input is left alone
});

Deno.test("sortRecords() compares times, not timestamp text", () => {
  // Same instant written with more fraction digits sorts by id.
  const a = { ...approval("b", 1), timestamp: "2026-11-30T09:01:00.000000Z" };
  const b = approval("a", 1);
  expect(sortRecords([a, b]).map((r) => r.id)).toEqual(["a", "b"]);
});

Deno.test("compareRecords() ties by id in code unit order", () => {
  expect(compareRecords(approval("B", 1), approval("a", 1))).toBeLessThan(0);
  expect(compareRecords(approval("a", 1), approval("a", 1))).toBe(0);
});

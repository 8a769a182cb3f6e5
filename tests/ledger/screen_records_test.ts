// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { screenRecords } from "../../src/ledger/screen_records.ts";
import { expiredRecord } from "../../src/ledger/records.ts";

Deno.test("screenRecords() drops records dated more than 5 minutes ahead", () => {
  const now = Date.parse("2026-11-30T12:00:00.000Z");
  const at = (ms: number, id: string) =>
    expiredRecord({ name: "tf", gate: "tf-wave-1" }, { id, now: now + ms });
  const kept = at(5 * 60_000, "kept");
  const late = at(5 * 60_000 + 1, "late");
  const got = screenRecords({ records: [kept, late], problems: [] }, now);
  expect(got.records).toEqual([kept]);
  expect(got.future).toEqual([late]);
  expect(got.problems).toEqual([
    'expired late of gate "tf-wave-1" is dated 2026-11-30T12:05:00.001Z, more than 5 minutes ahead of this clock; it does not count',
  ]);
});

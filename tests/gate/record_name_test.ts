// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import {
  checkLedgerSegment,
  compactTime,
  isRecordFileName,
  isTemporaryName,
  namedAs,
  recordFileName,
  temporaryName,
} from "../../src/gate/record_name.ts";
import { approval, at, expired, pending } from "../ledger/_records.ts";

Deno.test("compactTime() is fixed width with milliseconds", async (t) => {
  const cases = [
    { ms: Date.UTC(2026, 10, 30, 9, 15, 2, 123), want: "20261130T091502.123Z" },
    { ms: Date.UTC(2026, 0, 1, 0, 0, 0, 0), want: "20260101T000000.000Z" },
    { ms: 0, want: "19700101T000000.000Z" },
  ];
  for (const c of cases) {
    await t.step(c.want, () => {
      expect(compactTime(c.ms)).toBe(c.want);
      expect(compactTime(c.ms)).toHaveLength(20);
    });
  }
});

Deno.test("recordFileName() is <time>-<kind>-<id>.json", () => {
  expect(recordFileName(approval("9f2c", 15))).toBe(
    "20261130T091500.000Z-approval-9f2c.json",
  );
  expect(recordFileName(pending("ab", 0))).toBe(
    "20261130T090000.000Z-pending-ab.json",
  );
});

Deno.test("namedAs() reads the kind a record file's name gives, and only that", () => {
  const named = recordFileName(pending("ab", 0));
  expect(namedAs(named, ["pending"])).toBe(true);
  expect(namedAs(named, ["approval", "wave-outcome"])).toBe(false);
  expect(namedAs("20261130T090000.000Z-wave-outcome-x.json", ["wave-outcome"]))
    .toBe(true);
  // An id that spells a kind does not make the file that kind.
  expect(namedAs("20261130T090000.000Z-approval-x-pending-y.json", ["pending"]))
    .toBe(false);
  // A name in no form chant-wave gives says no kind.
  expect(namedAs("pending-ab.json", ["pending"])).toBe(false);
  expect(namedAs("20261130T090000.000Zpending-ab.json", ["pending"])).toBe(
    false,
  );
});

Deno.test("recordFileName() names sort by time", () => {
  const records = [
    expired("z", 0),
    approval("a", 1),
    approval("b", 10),
    approval("c", 600),
    approval("d", 60 * 24 * 40),
  ];
  const names = records.map(recordFileName);
  expect([...names].sort()).toEqual(names);
  expect(Date.parse(records[4].timestamp)).toBe(at(60 * 24 * 40));
});

Deno.test("recordFileName() refuses an id that cannot be part of a file name", () => {
  expect(() => recordFileName({ ...approval("a", 1), id: "../x" })).toThrow(
    'cannot name record "../x": bad id',
  );
});

Deno.test("temporaryName() names are skipped by readers", () => {
  const name = temporaryName("x-approval-a.json", "00ff");
  expect(name).toBe(".x-approval-a.json.00ff.tmp");
  expect(isTemporaryName(name)).toBe(true);
  expect(isRecordFileName(name)).toBe(false);
});

Deno.test("isRecordFileName() accepts only non-temporary .json names", async (t) => {
  const cases = [
    { name: "20261130T091502.123Z-approval-01.json", want: true },
    { name: "anything.json", want: true },
    { name: ".hidden.json", want: false },
    { name: "x.json.tmp", want: false },
    { name: "README.md", want: false },
    { name: ".gitkeep", want: false },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(isRecordFileName(c.name)).toBe(c.want));
  }
});

Deno.test("checkLedgerSegment() accepts names and gates, refuses paths", async (t) => {
  for (const ok of ["tf", "tf-wave-2", "a.b_c", "0day", "_x"]) {
    await t.step(`accepts ${ok}`, () => {
      expect(checkLedgerSegment("gate", ok)).toBe(ok);
    });
  }
  for (const bad of ["", ".", "..", "../x", "a/b", "a\\b", "-x", ".x", "a b"]) {
    await t.step(`refuses ${JSON.stringify(bad)}`, () => {
      expect(() => checkLedgerSegment("gate", bad)).toThrow(InputError);
    });
  }
  expect(() => checkLedgerSegment("name", "a/b")).toThrow(
    'invalid name "a/b": a ledger name is letters, digits, "_", "." and "-", ' +
      'not starting with "." or "-"',
  );
});

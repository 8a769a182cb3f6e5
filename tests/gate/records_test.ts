// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { counterRandomBytes } from "../../src/gate/random_hex.ts";
import {
  approvalRecord,
  expiredRecord,
  formatRecord,
  newRecord,
  newStamp,
  pendingRecord,
} from "../../src/gate/records.ts";
import { D } from "../ledger/_records.ts";

const stamp = { id: "0123abcd", now: Date.UTC(2026, 10, 30, 9, 15, 2, 123) };
const gate = { name: "tf", gate: "tf-wave-2" };

Deno.test("newStamp() takes the time from the clock and a 128-bit id from the random source", () => {
  const random = counterRandomBytes(0x0102);
  const first = newStamp({ now: () => 42 }, random);
  const second = newStamp({ now: () => 43 }, random);
  expect(first).toEqual({ id: "00000000000000000000000000000102", now: 42 });
  expect(second).toEqual({ id: "00000000000000000000000000000103", now: 43 });
  expect(newStamp({ now: () => 0 }).id).toMatch(/^[0-9a-f]{32}$/);
});

Deno.test("pendingRecord() fills id, timestamp and expiresAt in the order of §5.2", () => {
  const record = pendingRecord(
    {
      ...gate,
      planDigest: D,
      description: "eu: 1 to add",
      members: 3,
      base: "f".repeat(40),
      runId: "run-9",
    },
    48 * 3_600_000,
    stamp,
  );
  expect(Object.keys(record)).toEqual([
    "version",
    "kind",
    "id",
    "name",
    "gate",
    "planDigest",
    "description",
    "members",
    "base",
    "runId",
    "timestamp",
    "expiresAt",
  ]);
  expect(record.timestamp).toBe("2026-11-30T09:15:02.123Z");
  expect(record.expiresAt).toBe("2026-12-02T09:15:02.123Z");
  expect(record.version).toBe(1);
  expect(record.id).toBe("0123abcd");
});

Deno.test("approvalRecord() leaves out optional fields that are not given", () => {
  const plain = approvalRecord({ ...gate, planDigest: D, by: "ann" }, stamp);
  expect(plain).toEqual({
    version: 1,
    kind: "approval",
    id: "0123abcd",
    name: "tf",
    gate: "tf-wave-2",
    planDigest: D,
    by: "ann",
    timestamp: "2026-11-30T09:15:02.123Z",
  });
  expect("note" in plain).toBe(false);
  const full = approvalRecord(
    { ...gate, planDigest: D, by: "ann", note: "ok", url: "https://x/1" },
    stamp,
  );
  expect(full.note).toBe("ok");
  expect(full.url).toBe("https://x/1");
});

Deno.test("newRecord() and expiredRecord() build their kinds, fields in order", () => {
  const claim = newRecord("claim", {
    ...gate,
    approvalId: "a1",
    decisionId: "dec-1",
    runs: [{ target: "eu", planDigest: D, attempt: 1 }],
    runId: undefined,
  }, stamp);
  expect(claim).toEqual({
    version: 1,
    kind: "claim",
    id: "0123abcd",
    name: "tf",
    gate: "tf-wave-2",
    approvalId: "a1",
    decisionId: "dec-1",
    runs: [{ target: "eu", planDigest: D, attempt: 1 }],
    timestamp: "2026-11-30T09:15:02.123Z",
  });
  expect(Object.keys(claim)).toEqual([
    "version",
    "kind",
    "id",
    "name",
    "gate",
    "approvalId",
    "decisionId",
    "runs",
    "timestamp",
  ]);
  expect(expiredRecord({ ...gate, note: "wrong plan" }, stamp)).toEqual({
    version: 1,
    kind: "expired",
    id: "0123abcd",
    name: "tf",
    gate: "tf-wave-2",
    note: "wrong plan",
    timestamp: "2026-11-30T09:15:02.123Z",
  });
  expect(
    Object.keys(
      expiredRecord({ ...gate, note: "n", by: "bob", approvals: ["a"] }, stamp),
    ),
  ).toEqual([
    "version",
    "kind",
    "id",
    "name",
    "gate",
    "by",
    "note",
    "approvals",
    "timestamp",
  ]);
});

Deno.test("formatRecord() writes indented JSON ending in a newline", () => {
  const text = formatRecord(expiredRecord(gate, stamp));
  expect(text).toBe(
    '{\n  "version": 1,\n  "kind": "expired",\n  "id": "0123abcd",\n' +
      '  "name": "tf",\n  "gate": "tf-wave-2",\n' +
      '  "timestamp": "2026-11-30T09:15:02.123Z"\n}\n',
  );
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approvalPayload } from "../../src/seal/approval_payload.ts";
import { SealFormatError } from "../../src/seal/seal.ts";

const FIELDS = {
  name: "demo",
  gate: "demo-wave-2",
  planDigest: `sha256:${"a".repeat(64)}`,
  by: "ann@example.com",
  timestamp: "2026-11-30T09:15:02.123Z",
};

Deno.test("approvalPayload() joins seven lines with LF, no final LF: the ledger's counter last", async (t) => {
  const lines = [
    "chant-wave approval v2",
    "demo",
    "demo-wave-2",
    `sha256:${"a".repeat(64)}`,
    "ann@example.com",
    "2026-11-30T09:15:02.123Z",
  ];
  await t.step("the git ledger's counter", () => {
    expect(approvalPayload({ ...FIELDS, ledger: 42 })).toBe(
      [...lines, "ledger 42"].join("\n"),
    );
  });
  await t.step("none (the directory ledger)", () => {
    expect(approvalPayload(FIELDS)).toBe([...lines, "ledger -"].join("\n"));
  });
  await t.step(
    "an approval given with --during-freeze signs an eighth line",
    () => {
      expect(approvalPayload({ ...FIELDS, ledger: 42, duringFreeze: true }))
        .toBe(
          [...lines, "ledger 42", "during-freeze"].join("\n"),
        );
      expect(approvalPayload({ ...FIELDS, duringFreeze: false })).toBe(
        approvalPayload(FIELDS),
      );
    },
  );
  await t.step("a counter that is not a count is refused", () => {
    expect(() => approvalPayload({ ...FIELDS, ledger: -1 })).toThrow(
      SealFormatError,
    );
  });
});

Deno.test("approvalPayload() ignores fields it does not sign", () => {
  const record = { ...FIELDS, kind: "approval", id: "x", note: "ok" };
  expect(approvalPayload(record)).toBe(approvalPayload(FIELDS));
});

Deno.test("approvalPayload() refuses a field with a line break", async (t) => {
  for (const field of ["name", "gate", "planDigest", "by", "timestamp"]) {
    for (const brk of ["\n", "\r"]) {
      await t.step(`${field} with ${JSON.stringify(brk)}`, () => {
        const fields = { ...FIELDS, [field]: `a${brk}b` };
        expect(() => approvalPayload(fields)).toThrow(SealFormatError);
        expect(() => approvalPayload(fields)).toThrow(
          `the approval's "${field}" contains a line break`,
        );
      });
    }
  }
});

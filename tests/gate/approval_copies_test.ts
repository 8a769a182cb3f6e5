// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { dropApprovalCopies } from "../../src/gate/screen_records.ts";
import { approval, claim, D, D_OLD, sealed } from "../ledger/_records.ts";

Deno.test("dropApprovalCopies() reads a sealed approval once, at its first record", () => {
  const first = sealed(approval("a1", 1));
  const spent = claim("c1", 2, "a1", "dec-1", [{
    target: "eu",
    planDigest: D,
  }]);
  const copy = { ...first, id: "a2" };
  const read = dropApprovalCopies({
    records: [first, spent, copy],
    problems: [],
  });
  expect(read.records).toEqual([first, spent]);
  expect(read.problems).toEqual([
    'approval a2 of gate "tf-wave-2" repeats the sealed approval a1 (the same digest, approver and signed time): it is that approval, not another, and does not count again',
  ]);
});

Deno.test("dropApprovalCopies() keeps approvals that differ, and unsealed ones", () => {
  const records = [
    sealed(approval("a1", 1)),
    sealed(approval("a2", 2)),
    sealed(approval("a3", 1, D_OLD)),
    sealed(approval("a4", 1, D, "bob")),
    approval("a5", 1),
    approval("a6", 1),
  ];
  const read = { records, problems: [] };
  expect(dropApprovalCopies(read)).toBe(read);
});

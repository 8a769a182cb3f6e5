// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  dropArrivedAfter,
  onlyTightens,
} from "../../src/gate/screen_records.ts";
import { approval, claim, digest, expired, GATE } from "../ledger/_records.ts";

const D = digest("1");
const EU = { target: "eu", planDigest: D };

Deno.test("dropArrivedAfter() drops late records that loosen, keeps those that tighten and the job's own", () => {
  const early = approval("a0", 1, D, "ann");
  const late = approval("a1", 2, D, "mallory");
  const mine = approval("a2", 3, D, "me");
  const revoke = expired("e1", 4, []);
  const taken = claim("c1", 5, "a0", "dec-1", [EU]);
  const read = {
    records: [early, late, mine, revoke, taken],
    problems: ["older problem"],
  };
  const out = dropArrivedAfter(
    read,
    new Set([late, mine, revoke, taken]),
    new Set(["a2"]),
  );
  expect(out.records).toEqual([early, mine, revoke, taken]);
  expect(out.problems).toEqual([
    "older problem",
    `approval a1 of gate "${GATE}" reached the ledger after this job started its first command of the change; it does not count for this job`,
  ]);
  expect(dropArrivedAfter(read, new Set(), new Set())).toBe(read);
});

Deno.test("onlyTightens() is true of revokes and claims only", () => {
  expect(onlyTightens(expired("e1", 1, []))).toBe(true);
  expect(onlyTightens(claim("c1", 1, "a0", "dec-1", [EU]))).toBe(true);
  expect(onlyTightens(approval("a1", 1, D, "ann"))).toBe(false);
});

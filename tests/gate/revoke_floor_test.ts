// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { revokeFloor } from "../../src/gate/revoke_floor.ts";
import { approval, at, D, expired } from "../ledger/_records.ts";

Deno.test("revokeFloor() is the strictest of every revoke read", async (t) => {
  await t.step("none: nothing is ended by time or action", () => {
    expect(revokeFloor([approval("a1", 1, D)])).toEqual({ at: -Infinity });
  });
  await t.step("the latest time, wherever its revoke sits", () => {
    const records = [expired("e1", 9), expired("e2", 2)];
    expect(revokeFloor(records).at).toBe(at(9));
  });
  await t.step("the highest run and job ids, kind by kind", () => {
    const records = [
      { ...expired("e1", 1), actionsThrough: { run: "12" } },
      { ...expired("e2", 2), actionsThrough: { run: "9", job: "40" } },
      expired("e3", 3),
    ];
    expect(revokeFloor(records).actions).toEqual({ run: "12", job: "40" });
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { onceConfirmer } from "../../src/cli/_approval_count.ts";
import type {
  ApprovalConfirmer,
  Confirmation,
} from "../../src/gate/confirm_approvals.ts";
import type { ApprovalRecord } from "../../src/gate/records.ts";

Deno.test("onceConfirmer() asks about each approval once", async () => {
  const asked: string[] = [];
  const inner: ApprovalConfirmer = {
    confirm(approvals) {
      asked.push(...approvals.map((a) => a.id));
      return Promise.resolve(
        new Map<string, Confirmation>(
          approvals.map((a) => [a.id, { confirmed: true, login: a.by }]),
        ),
      );
    },
  };
  const record = (id: string, by: string) => ({ id, by }) as ApprovalRecord;
  const once = onceConfirmer(inner);
  const first = await once.confirm([record("1", "ann")], "d");
  const both = await once.confirm(
    [record("1", "ann"), record("2", "bob")],
    "d",
  );
  expect(asked).toEqual(["1", "2"]);
  expect(first.get("1")).toEqual({ confirmed: true, login: "ann" });
  expect([...both.keys()]).toEqual(["1", "2"]);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { describeTrust } from "../../src/gate/approval_at_base.ts";

Deno.test("describeTrust() says, per mode, whether code in the job can approve", () => {
  expect(describeTrust("ledger")).toBe(
    "any approval in the ledger counts, and its approver is whoever --by names: code the change runs in a job can write one, so use sealed or forge for production waves",
  );
  expect(describeTrust("forge")).toBe(
    "only approvals the forge confirms, or sealed ones, count: code the change runs in a job cannot make one",
  );
  expect(describeTrust("sealed")).toBe(
    "only signatures by keys listed at base count: code the change runs in a job cannot make one",
  );
});

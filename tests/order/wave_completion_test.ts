// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { jobLabel, waveCompletion } from "../../src/order/wave_completion.ts";
import {
  type LedgerRecord,
  newRecord,
  type OutcomeJob,
} from "../../src/gate/records.ts";

const HEAD = "a".repeat(40);

function applied(minute: number, job: OutcomeJob): LedgerRecord {
  return newRecord("wave-outcome", {
    name: "tf",
    gate: "tf-wave-2",
    wave: 2,
    head: HEAD,
    digest: `sha256:${"d".repeat(64)}`,
    decisionId: "dec-1",
    job,
    outcome: "applied",
  }, { id: `o${minute}`, now: Date.UTC(2026, 10, 30, 9, minute) });
}

Deno.test("waveCompletion() never takes a deciding job's canary outcome for the wave's", async (t) => {
  const wave = { k: 2, shares: 2 };
  await t.step(
    "the deciding job applied its canary runs: the shares are missing",
    () => {
      expect(waveCompletion([applied(1, { kind: "decide" })], wave, HEAD))
        .toEqual({
          complete: false,
          missing: [{ kind: "share", share: 1 }, { kind: "share", share: 2 }],
        });
    },
  );
  await t.step("every share job applied too: complete", () => {
    const records = [
      applied(1, { kind: "decide" }),
      applied(2, { kind: "share", share: 1 }),
      applied(3, { kind: "share", share: 2 }),
    ];
    expect(waveCompletion(records, wave, HEAD).complete).toBe(true);
  });
  await t.step("jobLabel() names it", () => {
    expect(jobLabel({ kind: "decide" })).toBe("the deciding job");
  });
});

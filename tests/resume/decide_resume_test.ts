// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { decideResume } from "../../src/resume/decide_resume.ts";
import type { RunLocator } from "../../src/ci/run_locator.ts";
import type { LedgerRecord, PlanPair } from "../../src/gate/records.ts";
import {
  approval,
  at,
  claim,
  D,
  D_OLD,
  digest,
  expired,
  GATE,
  pending,
} from "../ledger/_records.ts";

const LOCATOR: RunLocator = {
  forge: "gitlab",
  apiUrl: "https://gitlab.example/api/v4",
  projectId: "42",
  pipelineId: "5",
  jobId: "101",
  jobName: "wave-2-prod",
};
const waiting = { ...pending("w1", 0), locator: LOCATOR };
const EU: PlanPair = { target: "eu", planDigest: digest("e") };

function decide(
  records: LedgerRecord[],
  options: { pendingSet?: PlanPair[]; sets?: Map<string, PlanPair[]> } = {},
) {
  return decideResume({
    gate: GATE,
    records,
    sets: options.sets ?? new Map(),
    ...(options.pendingSet ? { pendingSet: options.pendingSet } : {}),
    now: at(5),
  });
}

Deno.test("decideResume() says what resume does about a gate", async (t) => {
  await t.step("nothing when no pending fact stands", () => {
    expect(decide([])).toBeUndefined();
    expect(decide([waiting, expired("e1", 1)])).toBeUndefined();
    expect(decide([{ ...pending("w0", -120), locator: LOCATOR }]))
      .toBeUndefined();
  });
  await t.step("not-approved, with the gate's reason", () => {
    expect(decide([waiting, approval("a1", 1, D_OLD)])).toEqual({
      status: "not-approved",
      pending: waiting,
      reason:
        `gate "${GATE}" is approved for ${D_OLD} by ann, but this plan is ${D}`,
    });
  });
  await t.step("restart when an approval covers the plan set", () => {
    const a = approval("a1", 1);
    expect(decide([waiting, a], { pendingSet: [EU] })).toEqual({
      status: "restart",
      pending: waiting,
      approval: a,
      locator: LOCATOR,
    });
  });
  await t.step(
    "an approval of another digest whose plans cover the set",
    () => {
      const a = approval("a1", 1, D_OLD);
      const step = decide([waiting, a], {
        pendingSet: [EU],
        sets: new Map([[D_OLD, [EU, { target: "us", planDigest: D }]]]),
      });
      expect(step?.status).toBe("restart");
    },
  );
  await t.step("no-job when the fact names no CI job", () => {
    const step = decide([pending("w1", 0), approval("a1", 1)]);
    expect(step).toMatchObject({
      status: "no-job",
      reason:
        "the pending fact names no CI job (recorded outside CI, or its run locator was dropped)",
    });
  });
  await t.step("skipped when a job of the gate ran since the approval", () => {
    const step = decide([
      waiting,
      approval("a1", 1),
      claim("c1", 2, "a1", "dec-1", [EU]),
    ]);
    expect(step).toMatchObject({
      status: "skipped",
      reason:
        "a job of the gate ran since the approval (claim at 2026-11-30T09:02:00.000Z)",
    });
  });
});

Deno.test("decideResume() judges approvals under the rules at base when given", async (t) => {
  const records = [waiting, approval("a1", 1)];
  const rules = (required: number, counts: boolean) => ({
    required,
    verdicts: new Map([["a1", {
      principal: "ann",
      display: "ann",
      ...(counts ? { counts: true as const } : {
        counts: false as const,
        why: "not signed",
      }),
    }]]),
  });
  const under = (gateRules: ReturnType<typeof rules>) =>
    decideResume({
      gate: GATE,
      records,
      sets: new Map(),
      now: at(5),
      rules: gateRules,
    });
  await t.step("one of two required: not approved, with the tally", () => {
    expect(under(rules(2, true))).toMatchObject({
      status: "not-approved",
      reason: `1 of 2 approvals of ${D}: ann`,
    });
  });
  await t.step("a refused approval: not approved, with the reason", () => {
    const step = under(rules(1, false));
    expect(step).toMatchObject({ status: "not-approved" });
    expect((step as { reason: string }).reason).toContain("ann (not signed)");
  });
  await t.step("one that counts: restart", () => {
    expect(under(rules(1, true))).toMatchObject({ status: "restart" });
  });
});

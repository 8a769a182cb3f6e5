// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  describeRecord,
  shortDigest,
  shortId,
} from "../../src/gate/describe_record.ts";
import {
  approval,
  claim,
  D,
  expired,
  outcome,
  pending,
} from "../ledger/_records.ts";
import {
  type LedgerRecord,
  newRecord,
  type OutcomeJob,
  type WaveOutcome,
} from "../../src/gate/records.ts";
import { SETTLED_BY, SETTLED_NOTE } from "../../src/gate/gate_messages.ts";

/** A wave outcome of wave 3 at a commit of fives, by one job. */
function waveOutcome(job: OutcomeJob, outcome: WaveOutcome): LedgerRecord {
  return newRecord("wave-outcome", {
    name: "tf",
    gate: "tf-wave-3",
    wave: 3,
    head: "5".repeat(40),
    digest: D,
    decisionId: "dec-1",
    job,
    outcome,
  }, { id: "o1", now: Date.parse("2026-11-30T09:02:00.000Z") });
}

Deno.test("describeRecord() prints one ledger log line per kind", async (t) => {
  const cases = [
    {
      name: "pending",
      record: pending("0123456789abcdef", 0),
      want: "2026-11-30T09:00:00.000Z pending  0123456789ab " +
        "sha256:dddddddddddd waiting, 2 members, base 555555555555, " +
        "until 2026-11-30T10:00:00.000Z: eu: 1 to add, 0 to destroy",
    },
    {
      name: "pending of one member with a run and a long description",
      record: {
        ...pending("w1", 0),
        members: 1,
        runId: "77",
        description: "eu: 1 to add\nus: 2 to add",
      },
      want: "2026-11-30T09:00:00.000Z pending  w1 sha256:dddddddddddd " +
        "waiting, 1 member, base 555555555555, until " +
        "2026-11-30T10:00:00.000Z, run 77: eu: 1 to add …",
    },
    {
      name: "approval",
      record: { ...approval("a1", 1), note: "looks fine", url: "https://x/1" },
      want:
        "2026-11-30T09:01:00.000Z approval a1 sha256:dddddddddddd by ann: " +
        "looks fine <https://x/1>",
    },
    {
      name: "sealed approval",
      record: approval("a1", 1),
      extras: {
        sealedBy: { principal: "ann@example.com", fingerprint: "SHA256:abc" },
      },
      want:
        "2026-11-30T09:01:00.000Z approval a1 sha256:dddddddddddd by ann, " +
        "sealed by ann@example.com (SHA256:abc)",
    },
    {
      name: "plain approval",
      record: approval("a1", 1),
      want: "2026-11-30T09:01:00.000Z approval a1 sha256:dddddddddddd by ann",
    },
    {
      name: "claim",
      record: {
        ...claim("c1", 2, "0123456789abcdef", "dec-1", [
          { target: "eu", planDigest: D },
          { target: "us", planDigest: D },
          { target: "ap", planDigest: D },
          { target: "sa", planDigest: D },
        ]),
        runId: "9",
      },
      want: "2026-11-30T09:02:00.000Z claim    c1 4 plans by decision dec-1 " +
        "under approval 0123456789ab: eu, us, ap and 1 more, run 9",
    },
    {
      name: "run outcome",
      record: outcome("o1", 2, "0123456789abcdef", "dec-1", [
        { target: "eu", planDigest: D, outcome: "ok" },
        { target: "us", planDigest: D, outcome: "failed" },
      ]),
      want: "2026-11-30T09:02:00.000Z run-outcome o1 decision dec-1 under " +
        "approval 0123456789ab: applied eu; failed us",
    },
    {
      name: "a whole-wave job's outcome",
      record: waveOutcome({ kind: "wave" }, "applied"),
      want: "2026-11-30T09:02:00.000Z wave-outcome o1 whole-wave job of " +
        "wave 3: applied at 555555555555, decision dec-1",
    },
    {
      name: "a group job's outcome is not the wave's",
      record: waveOutcome({ kind: "group", group: "eu" }, "applied"),
      want: '2026-11-30T09:02:00.000Z wave-outcome o1 group "eu" job of ' +
        "wave 3: applied at 555555555555, decision dec-1",
    },
    {
      name: "a deciding job's outcome: its canary runs",
      record: waveOutcome({ kind: "decide" }, "failed"),
      want: "2026-11-30T09:02:00.000Z wave-outcome o1 deciding job (the " +
        "canary runs) of wave 3: failed at 555555555555, decision dec-1",
    },
    {
      name: "a share job of a group that failed, with its run",
      record: {
        ...waveOutcome({ kind: "group", group: "us", share: 2 }, "failed"),
        runId: "9",
      },
      want: '2026-11-30T09:02:00.000Z wave-outcome o1 group "us" share 2 ' +
        "job of wave 3: failed at 555555555555, decision dec-1, run 9",
    },
    {
      name: "the settle chant-wave writes",
      record: {
        ...expired("e1", 3),
        by: SETTLED_BY,
        note: SETTLED_NOTE,
      },
      want: "2026-11-30T09:03:00.000Z expired  e1 settled: every approval " +
        "before it was spent (its plans applied)",
    },
    {
      name: "expired",
      record: { ...expired("e1", 3), note: "wrong plan" },
      want: "2026-11-30T09:03:00.000Z expired  e1 revoked: wrong plan",
    },
    {
      name: "expired, with who revoked",
      record: { ...expired("e1", 3), by: "bob", note: "wrong plan" },
      want: "2026-11-30T09:03:00.000Z expired  e1 revoked by bob: wrong plan",
    },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () =>
        expect(describeRecord(c.record, "extras" in c ? c.extras : {})).toBe(
          c.want,
        ),
    );
  }
});

Deno.test("shortDigest() and shortId() keep 12 characters", () => {
  expect(shortDigest(D)).toBe("sha256:dddddddddddd");
  expect(shortDigest("other")).toBe("other");
  expect(shortId("0123456789abcdef")).toBe("0123456789ab");
});

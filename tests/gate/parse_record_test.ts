// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { ShapeError } from "../../src/input/shape_error.ts";
import { parseRecord } from "../../src/gate/parse_record.ts";
import { formatRecord, newRecord } from "../../src/gate/records.ts";
import {
  approval,
  claim,
  D,
  expired,
  outcome,
  pending,
} from "../ledger/_records.ts";
import type { RunLocator } from "../../src/ci/run_locator.ts";

const LOCATOR: RunLocator = {
  forge: "github",
  apiUrl: "https://api.github.com",
  repository: "octo/hello",
  runId: "7",
  attempt: 1,
};

const SEAL = {
  principal: "ann@example.com",
  publicKey:
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9",
  signature:
    "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----",
};

Deno.test("parseRecord() reads back every kind as written", async (t) => {
  const withExtras = {
    ...approval("a1", 1),
    note: "ok",
    url: "https://ci.example/run/1",
  };
  const records = [
    pending("w1", 1),
    { ...pending("w2", 1), runId: "run-7" },
    {
      ...pending("w3", 1),
      actor: "carol",
      head: "c".repeat(40),
      spec: "deploy/waves.jsonc",
    },
    { ...pending("w4", 1), locator: LOCATOR },
    newRecord("waiting", {
      name: "tf",
      gate: "tf-wave-2",
      wave: 2,
      head: "f".repeat(40),
      why: "soak",
      until: "2026-12-06T14:32:00.000Z",
      runId: "run-9",
      locator: LOCATOR,
    }, { id: "t1", now: 0 }),
    approval("a1", 2),
    withExtras,
    { ...approval("a2", 2), seal: SEAL },
    claim("p1", 3, "a1", "dec-1", [{ target: "eu", planDigest: D }]),
    {
      ...claim("p2", 3, "a1", "dec-1", [{ target: "eu", planDigest: D }]),
      runId: "run-8",
    },
    outcome("o1", 3, "a1", "dec-1", [
      { target: "eu", planDigest: D, attempt: 2, outcome: "failed" },
    ]),
    expired("e1", 4),
    { ...expired("e2", 4), note: "" },
    expired("e3", 4, ["a1", "a2"]),
    { ...expired("e3", 4), by: "bob", note: "wrong plan" },
    newRecord("wave-outcome", {
      name: "tf",
      gate: "tf-wave-2",
      wave: 2,
      head: "f".repeat(40),
      digest: D,
      decisionId: "20261130T090000.000Z-0123",
      job: { kind: "group", group: "eu", share: 2 },
      outcome: "nothing-to-do",
    }, { id: "w9", now: 0 }),
    newRecord("wave-outcome", {
      name: "tf",
      gate: "tf-wave-2",
      wave: 2,
      head: "f".repeat(40),
      digest: D,
      decisionId: "20261130T090000.000Z-0123",
      job: { kind: "wave" },
      outcome: "applied",
      runId: "7",
      actor: "dana",
    }, { id: "w8", now: 0 }),
    newRecord("wave-outcome", {
      name: "tf",
      gate: "tf-wave-2",
      wave: 2,
      head: "f".repeat(40),
      digest: D,
      decisionId: "20261130T090000.000Z-0123",
      job: { kind: "decide" },
      outcome: "failed",
    }, { id: "w7", now: 0 }),
    newRecord("out-of-order", {
      name: "tf",
      gate: "tf-wave-2",
      wave: 2,
      head: "f".repeat(40),
      by: "ann",
      reason: "hotfix",
    }, { id: "x9", now: 0 }),
    PLANS,
    FOLDED,
  ];
  for (const record of records) {
    await t.step(`${record.kind} ${record.id}`, () => {
      expect(parseRecord(formatRecord(record), "x.json")).toEqual(record);
    });
  }
});

Deno.test("parseRecord() drops a malformed run locator with a problem line, keeping the pending fact", async (t) => {
  const cases = [
    {
      name: "a run id that is not digits",
      locator: { ...LOCATOR, runId: "7; rm -rf /" },
      want:
        'x.json: run locator: "runId" must be a run id (digits); it is dropped',
    },
    {
      name: "an unknown field",
      locator: { ...LOCATOR, token: "s3cret" },
      want:
        'x.json: run locator: unknown field "token" for github; it is dropped',
    },
    {
      name: "not an object",
      locator: "github",
      want: "x.json: run locator: is not an object; it is dropped",
    },
  ];
  for (const { name, locator, want } of cases) {
    await t.step(name, () => {
      const problems: string[] = [];
      const text = JSON.stringify({ ...pending("w1", 1), locator });
      expect(parseRecord(text, "x.json", problems)).toEqual(pending("w1", 1));
      expect(problems).toEqual([want]);
    });
  }
});

Deno.test("parseRecord() drops unknown fields", () => {
  const text = JSON.stringify({ ...expired("e1", 1), extra: true });
  expect(parseRecord(text, "x.json")).toEqual(expired("e1", 1));
});

const PLANS = newRecord("recorded-plans", {
  name: "tf",
  gate: "recorded-plans",
  head: "f".repeat(40),
  waves: [{ wave: 1, name: "prod", gate: "tf-wave-1", digest: D }],
  runId: "9",
}, { id: "r9", now: 0 });

const FOLDED = newRecord("folded", {
  name: "tf",
  gate: "tf-wave-2",
  through: "e1",
  records: 12,
  counts: { approval: 4, pending: 6, claim: 2 },
  sets: 3,
  approvals: ["a1", "a2"],
  archive: "c".repeat(40),
}, { id: "f1", now: 0 });

/** The message `fn` throws, checking it is the input reader's ShapeError. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ShapeError);
    return (error as Error).message;
  }
  throw new Error("expected a ShapeError");
}

Deno.test("parseRecord() says exactly what is wrong with a malformed record", async (t) => {
  const a = approval("a1", 1);
  const p = pending("w1", 1);
  const edit = (record: object, change: Record<string, unknown>) =>
    JSON.stringify({ ...record, ...change });
  const cases = [
    { name: "not an object", text: "[1]", want: "record is not a JSON object" },
    { name: "null", text: "null", want: "record is not a JSON object" },
    {
      name: "missing version",
      text: edit(a, { version: undefined }),
      want: 'has no "version"',
    },
    {
      name: "another version",
      text: edit(a, { version: 2 }),
      want: "unsupported record version 2; expected 1",
    },
    {
      name: "unknown kind",
      text: edit(a, { kind: "approved" }),
      want: 'unknown record kind "approved"; expected one of ' +
        '"pending", "approval", "expired", "claim", "run-outcome", "wave-outcome", "out-of-order", "waiting", "recorded-plans", "folded"',
    },
    {
      name: "missing kind",
      text: edit(a, { kind: undefined }),
      want: 'has no "kind"',
    },
    {
      name: "a wait for what is not one",
      text: JSON.stringify({
        version: 1,
        kind: "waiting",
        id: "t1",
        name: "tf",
        gate: "tf-wave-2",
        wave: 2,
        head: "f".repeat(40),
        why: "lunch",
        until: "2026-12-06T14:32:00.000Z",
        timestamp: "2026-12-06T12:00:00.000Z",
      }),
      want: '"why" is "lunch"; expected "soak" or "freeze"',
    },
    {
      name: "missing field",
      text: edit(a, { by: undefined }),
      want: 'has no "by"',
    },
    {
      name: "empty field",
      text: edit(a, { by: "" }),
      want: '"by" is empty',
    },
    {
      name: "wrong type",
      text: edit(a, { gate: 7 }),
      want: '"gate" is not a string: 7',
    },
    {
      name: "bad digest",
      text: edit(a, { planDigest: D.toUpperCase() }),
      want: '"planDigest" is not sha256:<64 lowercase hex>: ' +
        `"SHA256:${"D".repeat(52)}…"`, // shown values stop at 60 characters
    },
    {
      name: "short digest",
      text: edit(a, { planDigest: "sha256:abc" }),
      want: '"planDigest" is not sha256:<64 lowercase hex>: "sha256:abc"',
    },
    {
      name: "bad id",
      text: edit(a, { id: "../x" }),
      want: '"id" is not a record id (letters, digits, "-" or "_"): ' +
        '"../x"',
    },
    {
      name: "bad timestamp",
      text: edit(a, { timestamp: "yesterday" }),
      want: '"timestamp" is not an ISO 8601 UTC time: "yesterday"',
    },
    {
      name: "timestamp not in UTC",
      text: edit(a, { timestamp: "2026-11-30T09:15:02.123+01:00" }),
      want: '"timestamp" is not an ISO 8601 UTC time: ' +
        '"2026-11-30T09:15:02.123+01:00"',
    },
    {
      name: "impossible date",
      text: edit(a, { timestamp: "2026-13-45T09:15:02.123Z" }),
      want: '"timestamp" is not a valid time: "2026-13-45T09:15:02.123Z"',
    },
    {
      name: "negative member count",
      text: edit(p, { members: -1 }),
      want: '"members" is not a whole number of at least 0: -1',
    },
    {
      name: "fractional member count",
      text: edit(p, { members: 1.5 }),
      want: '"members" is not a whole number of at least 0: 1.5',
    },
    {
      name: "missing expiresAt",
      text: edit(p, { expiresAt: undefined }),
      want: 'has no "expiresAt"',
    },
    {
      name: "optional field of the wrong type",
      text: edit(a, { note: 5 }),
      want: '"note" is not a string: 5',
    },
    {
      name: "a seal that is not an object",
      text: edit(a, { seal: "signed" }),
      want: '"seal" is not an object: "signed"',
    },
    {
      name: "a seal without a signature",
      text: edit(a, { seal: { ...SEAL, signature: undefined } }),
      want: '"seal" has no "signature"',
    },
    {
      name: "a seal with an overlong principal",
      text: edit(a, { seal: { ...SEAL, principal: "a".repeat(257) } }),
      want: '"seal.principal" is longer than 256 characters',
    },
    {
      name: "a seal with an overlong signature",
      text: edit(a, {
        seal: { ...SEAL, signature: "s".repeat(16 * 1024 + 1) },
      }),
      want: '"seal.signature" is longer than 16384 characters',
    },
    {
      name: "a pending fact with an overlong actor",
      text: edit(p, { actor: "a".repeat(257) }),
      want: '"actor" is longer than 256 characters',
    },
    {
      name: "a pending fact whose head is not a sha",
      text: edit(p, { head: "HEAD" }),
      want: '"head" is not a full commit sha: "HEAD"',
    },
    {
      name: "a claim without a decision",
      text: edit(claim("p1", 1, "a1", "dec-1", []), { decisionId: undefined }),
      want: 'has no "decisionId"',
    },
    {
      name: "a claim of a target with a control character",
      text: edit(claim("p1", 1, "a1", "dec-1", []), {
        runs: [{ target: "a\u001b", planDigest: D, attempt: 1 }],
      }),
      want: '"runs[0].target" is not a valid target',
    },
    {
      name: "an outcome that is neither ok nor failed",
      text: edit(outcome("o1", 1, "a1", "dec-1", []), {
        runs: [{ target: "eu", planDigest: D, attempt: 1, outcome: "maybe" }],
      }),
      want: '"runs[0].outcome" is not "ok" or "failed": "maybe"',
    },
    {
      name: "recorded plans of a short head",
      text: edit(PLANS, { head: "f".repeat(12) }),
      want: '"head" is not a full commit sha: "ffffffffffff"',
    },
    {
      name: "recorded plans of wave 0",
      text: edit(PLANS, { waves: [{ ...PLANS.waves[0], wave: 0 }] }),
      want: '"waves[0].wave" is not a whole number of at least 1: 0',
    },
    {
      name: "recorded plans under a gate that is no path segment",
      text: edit(PLANS, { waves: [{ ...PLANS.waves[0], gate: "../x" }] }),
      want: '"waves[0].gate" is not a gate name: "../x"',
    },
    {
      name: "a summary counting an unknown kind",
      text: edit(FOLDED, { counts: { approvals: 4 } }),
      want: '"counts" names an unknown record kind "approvals"',
    },
    {
      name: "a summary counting less than nothing",
      text: edit(FOLDED, { counts: { claim: -1 } }),
      want: '"counts.claim" is not a whole number of at least 0: -1',
    },
    {
      name: "a summary without its archive",
      text: edit(FOLDED, { archive: undefined }),
      want: 'has no "archive"',
    },
    {
      name: "recorded plans with a bad digest",
      text: edit(PLANS, { waves: [{ ...PLANS.waves[0], digest: "x" }] }),
      want: '"waves[0].digest" is not sha256:<64 lowercase hex>: "x"',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(thrown(() => parseRecord(c.text, "gates/tf/g/x.json"))).toBe(
        `gates/tf/g/x.json: ${c.want}`,
      );
    });
  }
});

Deno.test("parseRecord() names the file when the text is not JSON", () => {
  const message = thrown(() => parseRecord('{"version":1', "x.json"));
  expect(message.startsWith("x.json: record is not valid JSON: ")).toBe(true);
  expect(thrown(() => parseRecord("", "y.json"))).toMatch(
    /^y\.json: record is not valid JSON: /,
  );
});

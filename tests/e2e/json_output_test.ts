// End to end: `--json` on every command with a result (approve, revoke, ledger
// log/pull/push here; run, check, jobs, status, pipeline and plan-file in their
// own tests), `revoke --by` kept in the record, and `{ exitCode, error }` on
// stdout for an input error of any command run with --json.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type BinaryResult, runBinary, tempDir } from "../_helpers/binary.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const SPEC = JSON.stringify({
  name: "tf",
  plan: ["p", "{plan}"],
  apply: ["a", "{plan}"],
  waves: [{ name: "dev", runs: ["x"] }],
});
const DIGEST = `sha256:${"ab".repeat(32)}`;
const ID = /^[0-9a-f]{32}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A record with its id and timestamp checked and replaced by placeholders. */
function stable(record: unknown): Record<string, unknown> {
  const { id, timestamp, ...rest } = record as Record<string, string>;
  expect(id).toMatch(ID);
  expect(timestamp).toMatch(TIME);
  return { ...rest, id: "<id>", timestamp: "<time>" };
}

/** The one JSON line of stdout. */
function jsonOf(out: BinaryResult): Record<string, unknown> {
  expect(out.stdout.endsWith("\n")).toBe(true);
  expect(out.stdout.trimEnd().split("\n")).toHaveLength(1);
  return JSON.parse(out.stdout);
}

Deno.test("--json prints { exitCode, error } on stdout for every command's input error", async (t) => {
  await using dir = await tempDir({ "waves.json": SPEC, "bad.json": "{" });
  const cases = [
    ["run", "--spec", "waves.json", "--json"],
    ["run", "--spec", "waves.json", "--wave", "9", "--json"],
    ["approve", "tf", "tf-wave-1", "--plan", "sha256:x", "--json"],
    ["revoke", "tf", "--json"],
    ["status", "--json"],
    ["check", "--json"],
    ["jobs", "--spec", "missing.json", "--json"],
    ["pipeline", "gitlba", "--spec", "waves.json", "--json"],
    ["plan-file", "opentofu", "--json"],
    ["ledger", "frob", "--json"],
    ["ledger", "push", "--json"],
    ["status", "--spec", "waves.json", "--json", "--jsno"],
    ["schema", "--json"],
    ["completion", "bash", "--json"],
  ];
  for (const args of cases) {
    await t.step(args.join(" "), async () => {
      const out = await runBinary(args, { cwd: dir.path });
      expect(out.code).toBe(2);
      const headline = out.stderr.split("\n")[0];
      expect(headline).toMatch(/^error: /);
      expect(jsonOf(out)).toEqual({
        exitCode: 2,
        error: headline.slice("error: ".length),
      });
    });
  }
  await t.step("check keeps its own object for an invalid spec", async () => {
    const out = await runBinary(["check", "--spec", "bad.json", "--json"], {
      cwd: dir.path,
    });
    expect(out.code).toBe(2);
    expect(jsonOf(out)).toMatchObject({ ok: false, file: "bad.json" });
  });
  await t.step("without --json, stdout stays empty", async () => {
    const out = await runBinary(["status"], { cwd: dir.path });
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr: 'error: "status" needs "--spec"\n',
    });
  });
});

Deno.test("approve, revoke and ledger log --json print what they recorded; revoke --by is kept", async (t) => {
  // The gate waits for DIGEST: approve refuses a gate the ledger does not know.
  const waiting = {
    version: 1,
    kind: "pending",
    id: "0000000000000000000000000000000a",
    name: "tf",
    gate: "tf-wave-1",
    planDigest: DIGEST,
    description: "",
    members: 1,
    base: "f".repeat(40),
    timestamp: "2026-01-01T00:00:00.000Z",
    expiresAt: "2026-01-01T01:00:00.000Z",
  };
  await using dir = await tempDir({
    ".chant/ledger/gates/tf/tf-wave-1/20260101T000000.000Z-pending-a.json": JSON
      .stringify(waiting),
  });
  const ledger = `directory ledger ${dir.path}/.chant/ledger`;
  let approvalId = "";
  await t.step("approve --json", async () => {
    const out = await runBinary([
      "approve",
      "tf",
      "tf-wave-1",
      "--plan",
      DIGEST,
      "--by",
      "ann",
      "--note",
      "reviewed",
      "--json",
    ], { cwd: dir.path });
    expect(out.code).toBe(0);
    const { record, ...rest } = jsonOf(out) as {
      record: Record<string, unknown>;
    };
    expect(rest).toEqual({ ledger });
    expect(stable(record)).toEqual({
      version: 1,
      kind: "approval",
      id: "<id>",
      name: "tf",
      gate: "tf-wave-1",
      planDigest: DIGEST,
      by: "ann",
      note: "reviewed",
      timestamp: "<time>",
    });
    approvalId = record.id as string;
    expect(out.stderr).toContain(
      `approved tf-wave-1 of tf for ${DIGEST} by ann\n`,
    );
  });
  await t.step("revoke --by --json", async () => {
    const out = await runBinary(
      ["revoke", "tf", "tf-wave-1", "--by", "bob", "--note", "wrong", "--json"],
      { cwd: dir.path },
    );
    expect(out.code).toBe(0);
    const { record, ...rest } = jsonOf(out);
    expect(rest).toEqual({ ledger });
    expect(stable(record)).toEqual({
      version: 1,
      kind: "expired",
      id: "<id>",
      name: "tf",
      gate: "tf-wave-1",
      by: "bob",
      note: "wrong",
      approvals: [approvalId],
      timestamp: "<time>",
    });
  });
  await t.step("revoke without --by records $USER", async () => {
    const out = await runBinary(["revoke", "tf", "tf-wave-1", "--json"], {
      cwd: dir.path,
      env: { USER: "carol" },
    });
    expect((jsonOf(out).record as Record<string, unknown>).by).toBe("carol");
  });
  await t.step("ledger log shows who revoked", async () => {
    const out = await runBinary(["ledger", "log"], { cwd: dir.path });
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("tf tf-wave-1");
    expect(lines[3]).toMatch(/ expired {2}[0-9a-f]{12} revoked by bob: wrong$/);
    expect(lines[4]).toMatch(/ expired {2}[0-9a-f]{12} revoked by carol$/);
  });
  await t.step("ledger log --json", async () => {
    const out = await runBinary(["ledger", "log", "--json"], { cwd: dir.path });
    expect(out.code).toBe(0);
    const report = jsonOf(out) as {
      ledger: string;
      gates: { name: string; gate: string; records: { kind: string }[] }[];
    };
    expect(report.ledger).toBe(ledger);
    expect(report.gates.map((gate) => [gate.name, gate.gate])).toEqual([
      ["tf", "tf-wave-1"],
    ]);
    // The second revoke folded the pending fact the first one ended: its
    // summary is listed beside every record it folded.
    expect(report.gates[0].records.map((record) => record.kind)).toEqual([
      "pending",
      "approval",
      "expired",
      "expired",
      "folded",
    ]);
  });
});

Deno.test("ledger pull and push --json report the sync", async () => {
  await using repo = await tempRepo({ "waves.json": SPEC });
  await repo.commit("spec");
  await repo.git("init", "--bare", "-q", `${repo.root}/remote.git`);
  await repo.git("remote", "add", "origin", `${repo.root}/remote.git`);
  const push = await runBinary(
    ["ledger", "push", "--ledger", "git", "--json"],
    {
      cwd: repo.path,
    },
  );
  expect(push.code).toBe(0);
  expect(jsonOf(push)).toEqual({
    remote: "origin",
    records: 0,
    message: 'chant/ledger is up to date with "origin"',
  });
  const revoke = await runBinary(
    ["revoke", "tf", "tf-wave-1", "--by", "ann", "--ledger", "git"],
    { cwd: repo.path },
  );
  expect(revoke.code).toBe(0);
  const pull = await runBinary(
    ["ledger", "pull", "--ledger", "git", "--json"],
    {
      cwd: repo.path,
    },
  );
  expect(pull.code).toBe(0);
  const { tip, ...rest } = jsonOf(pull);
  expect(tip).toMatch(/^[0-9a-f]{40}$/);
  expect(rest).toEqual({
    remote: "origin",
    records: 0,
    message: `pulled chant/ledger from "origin" at ${String(tip).slice(0, 12)}`,
  });
});

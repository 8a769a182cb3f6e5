// Seeded fuzzing of everything chant-wave parses that crossed a boundary (SPEC.md
// §14): specs, plan files, plans files, ledger records, decision records, plan
// sets and OpenTofu plan documents. Each damaged input must be refused with the
// input reader's one-line ShapeError (never a TypeError or a RangeError: those
// are "internal errors"), and parse quickly; specs also go through `check` exactly
// as the binary runs it, which must exit 0 or 2 and print no stack.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { realClock } from "../../src/clock.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { memoryWriter } from "../../src/console/writer.ts";
import { SpecError } from "../../src/errors.ts";
import { Interrupts } from "../../src/exec/interrupts.ts";
import { createGit } from "../../src/git/git.ts";
import { ShapeError } from "../../src/input/shape_error.ts";
import { parseRecord } from "../../src/gate/parse_record.ts";
import { parsePlanSet } from "../../src/gate/plan_set_file.ts";
import { formatRecord, newRecord } from "../../src/gate/records.ts";
import { parseDecision } from "../../src/gate/decision.ts";
import { parsePlanFile, parsePlansFile } from "../../src/plan/plan_file.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { setDigest } from "../../src/digest/set_digest.ts";
import { tofuPlanFile } from "../../src/tofu/tofu_plan_file.ts";
import { tempDir } from "../_helpers/binary.ts";
import { mutate, seeded } from "./_mutate.ts";

/** An upper bound, not a speed claim: a case past it means a pathology. */
const CASE_MS = 5_000;

const SPEC = JSON.stringify(
  {
    $schema: "./waves.schema.json",
    name: "tf",
    plan: ["tofu", "plan", "-out={plan}", "{target}"],
    apply: ["tofu", "apply", "{plan}"],
    parallel: 2,
    timeout: "15m",
    order: "strict",
    waves: [
      { name: "dev", gate: "never", runs: ["dev"] },
      {
        name: "prod",
        gate: "on-destructive",
        runs: ["eu-1", { target: "us-1", op: "x" }, "ap/1"],
        jobs: [
          { name: "eu", runs: ["eu-*"], shares: 1 },
          { name: "rest", runs: ["us-*", "ap/**"] },
        ],
        environment: { name: "production" },
      },
    ],
    notify: { webhook: "HOOK" },
  },
  null,
  2,
);

const D = `sha256:${"a".repeat(64)}`;
const PLAN = JSON.stringify({
  planDigest: D,
  destructive: true,
  summary: "1 to add",
});
const PLANS = JSON.stringify({
  runs: [{ target: "eu", planDigest: D }, {
    target: "us",
    planDigest: D,
    empty: true,
  }],
});
const MEMBERS = [{ target: "eu", planDigest: D }, {
  target: "us",
  planDigest: D,
}];
const DECISION = JSON.stringify({
  version: 1,
  decisionId: "20261130T090000.000Z-0a1b2c",
  wave: 2,
  name: "tf",
  spec: "waves.jsonc",
  gate: "tf-wave-2",
  policy: "always",
  policySource: "base",
  policyReason: "read at 0123456789ab",
  base: "f".repeat(40),
  digest: setDigest(MEMBERS),
  members: MEMBERS.map((m) => ({ ...m, op: "tf" })),
  status: "approved",
  approvalId: "0123456789abcdef0123456789abcdef",
  createdAt: "2026-11-30T09:00:00.000Z",
});
const RECORDS = [
  formatRecord(newRecord("approval", {
    name: "tf",
    gate: "tf-wave-2",
    planDigest: D,
    by: "ann",
    note: "ok",
  }, { id: "a1", now: 0 })),
  formatRecord(newRecord("claim", {
    name: "tf",
    gate: "tf-wave-2",
    approvalId: "a1",
    decisionId: "d1",
    runs: [{ target: "eu", planDigest: D, attempt: 1 }],
  }, { id: "c1", now: 0 })),
  formatRecord(newRecord("wave-outcome", {
    name: "tf",
    gate: "tf-wave-2",
    wave: 2,
    head: "f".repeat(40),
    digest: D,
    decisionId: "d1",
    job: { kind: "share", share: 1 },
    outcome: "applied",
  }, { id: "w1", now: 0 })),
];
const TOFU = await Deno.readTextFile(
  new URL("../fixtures/terraform-plans/actions.json", import.meta.url),
);

/** Runs `parse` on `cases` damaged copies of `valid`; only `expected` errors may be thrown. */
function fuzz(
  name: string,
  valid: string,
  cases: number,
  seed: number,
  parse: (text: string) => unknown,
  expected: (error: unknown) => boolean,
): void {
  const random = seeded(seed);
  for (let i = 0; i < cases; i++) {
    const text = mutate(valid, random);
    const start = performance.now();
    try {
      parse(text);
    } catch (error) {
      if (!expected(error)) {
        throw new Error(
          `${name} case ${i}: unexpected ${(error as Error).name}: ${
            (error as Error).message
          }\n${JSON.stringify(text.slice(0, 300))}`,
        );
      }
      expect((error as Error).message.length).toBeLessThan(2_000);
    }
    const took = performance.now() - start;
    if (took > CASE_MS) throw new Error(`${name} case ${i} took ${took} ms`);
  }
}

/** The input reader's `ShapeError` (what the parsers throw), not a TypeError, RangeError, …. */
const shapeError = (error: unknown) => error instanceof ShapeError;

Deno.test("the parsers refuse damaged input with their own errors only", async (t) => {
  await t.step(
    "specs",
    () =>
      fuzz(
        "spec",
        SPEC,
        1500,
        1,
        (text) => parseSpec(text, "w.jsonc"),
        (e) => e instanceof SpecError,
      ),
  );
  await t.step(
    "plan files",
    () => fuzz("plan file", PLAN, 800, 2, parsePlanFile, shapeError),
  );
  await t.step(
    "plans files",
    () => fuzz("plans file", PLANS, 800, 3, parsePlansFile, shapeError),
  );
  await t.step("ledger records", () => {
    RECORDS.forEach((record, i) =>
      fuzz(
        "record",
        record,
        400,
        4 + i,
        (text) => parseRecord(text, "x.json"),
        shapeError,
      )
    );
  });
  await t.step(
    "decision records",
    () => fuzz("decision", DECISION, 800, 8, parseDecision, shapeError),
  );
  await t.step("plan sets", () => {
    const digest = setDigest(MEMBERS);
    const text = `{"version":1,"digest":"${digest}","members":${
      JSON.stringify(MEMBERS)
    }}`;
    fuzz("plan set", text, 500, 9, (t) => parsePlanSet(t, digest), shapeError);
  });
  await t.step(
    "OpenTofu plan documents",
    () => fuzz("tofu", TOFU, 300, 10, tofuPlanFile, shapeError),
  );
});

Deno.test("check, as the binary runs it, answers 0 or 2 for damaged specs and never an internal error", async () => {
  await using dir = await tempDir();
  const git = createGit({ env: { PATH: Deno.env.get("PATH") ?? "" } });
  const random = seeded(11);
  for (let i = 0; i < 300; i++) {
    const text = mutate(SPEC, random);
    await Deno.writeTextFile(`${dir.path}/w.jsonc`, text);
    const stdout = memoryWriter();
    const stderr = memoryWriter();
    const io: CliIo = {
      stdout,
      stderr,
      env: {},
      cwd: dir.path,
      clock: realClock,
      interrupts: new Interrupts(),
      git,
    };
    const code = await main(["check", "--spec", "w.jsonc"], io);
    const context = `case ${i}: ${
      JSON.stringify(text.slice(0, 200))
    }\n${stderr.text()}`;
    expect([0, 2], context).toContain(code);
    expect(stderr.text(), context).not.toContain("internal error");
    expect(stderr.text(), context).not.toMatch(/^\s+at /m);
  }
});

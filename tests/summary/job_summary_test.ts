// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Decision } from "../../src/gate/decision.ts";
import type { JobResult } from "../../src/jobs/job_result.ts";
import { jobSummary } from "../../src/summary/job_summary.ts";

const D = `sha256:${"d".repeat(64)}`;
const P = `sha256:${"1".repeat(64)}`;

const decision: Decision = {
  version: 1,
  decisionId: "d-1",
  wave: 2,
  name: "tf",
  spec: "waves.json",
  gate: "tf-wave-2",
  policy: "always",
  policySource: "base",
  policyReason: "",
  base: "b".repeat(40),
  digest: D,
  members: ["a", "b", "c"].map((target) => ({
    target,
    planDigest: P,
    op: "tf",
    summary: `${target}: 1 to add`,
  })),
  status: "approved",
  approvedBy: "ann",
  createdAt: "2026-12-01T10:00:00.000Z",
};

const result: JobResult = {
  exitCode: 1,
  wave: 2,
  job: { kind: "share", share: 1 },
  decision,
  applied: ["a"],
  failed: ["b"],
  moved: [],
  untried: [],
  skipped: [],
  runs: ["a", "b"],
  failures: [{ target: "b", message: 'apply of "b" exited 1' }],
};

Deno.test("jobSummary() lists the job's own runs with their outcome", () => {
  expect(jobSummary(result, "prod")).toBe(
    [
      "### chant-wave: wave 2 (prod), share 1: exit 1",
      "",
      `Gate \`tf-wave-2\`: **approved** by ann, policy \`always\`, set digest \`${D}\``,
      "",
      "| run | plan digest | summary | outcome |",
      "| --- | --- | --- | --- |",
      `| a | \`${P}\` | a: 1 to add | applied |`,
      `| b | \`${P}\` | b: 1 to add | failed: apply of "b" exited 1 |`,
      "",
      "",
    ].join("\n"),
  );
});

Deno.test("jobSummary() of a waiting job gives the rules, the tally and the approve command", () => {
  const waiting: JobResult = {
    ...result,
    exitCode: 3,
    job: { kind: "decide" },
    decision: { ...decision, status: "waiting", approvedBy: undefined },
    applied: [],
    failed: [],
    runs: ["a", "b", "c"],
    failures: [],
    waiting: {
      approve: `chant-wave approve tf tf-wave-2 --plan ${D}`,
      rules: "ledger, 2 distinct approvers, anyone, self-approval allowed (…)",
      tally: `1 of 2 approvals of ${D}: ann`,
      approvals: { counted: 1, required: 2 },
    },
  };
  const text = jobSummary(waiting, "prod");
  expect(text).toContain(
    [
      "Approval rules at base: ledger, 2 distinct approvers, anyone, self-approval allowed (…)",
      "",
      `Approvals so far: 1 of 2 approvals of ${D}: ann`,
      "",
      "```",
      `chant-wave approve tf tf-wave-2 --plan ${D}`,
      "```",
    ].join("\n"),
  );
  expect(text).toContain(`| c | \`${P}\` | c: 1 to add | waiting |`);
});

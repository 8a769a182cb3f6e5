// End to end through the binary: what a job tells people at its end (issue 24,
// SPEC.md §7, §14). The GitHub job summary of a group job lists the job's own
// runs with their real outcome; a waiting job's summary gives the approval rules
// and the tally beside the approve command; the run summary table on stderr
// lists every run of the job, refused ones included.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const DIGEST = "`sha256:[0-9a-f]{64}`";

/** The rows of the last section's runs table, each as its cells. */
function tableRows(summary: string): string[][] {
  const section = summary.slice(summary.lastIndexOf("### chant-wave: "));
  return section.split("\n").filter((line) => line.startsWith("| "))
    .slice(2).map((line) => line.slice(2, -2).split(" | "));
}

Deno.test("the summary of a group job lists its own runs with their real outcome", async (t) => {
  const wave = {
    name: "prod",
    runs: ["t1", "t2", "t3", "t4", "t5", "t6", "z1"],
    onFailure: "stop",
    jobs: [{ name: "t", runs: ["t*"] }, { name: "z", runs: ["z*"] }],
  };
  await using r = await rollout(specOf([wave]));
  const file = `${r.repo.root}/summary.md`;
  const github = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: file };
  const group = ["run", ...SPEC, "--wave", "1", "--group", "t"];
  await r.desire("t2", "empty");
  const decide = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect(decide.code).toBe(3);
  expect((await r.run([...approveLine(decide.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);
  // A first attempt applies t1; t3 fails, so t4 to t6 are left untried.
  await r.control("t3", "apply-exit", "1");
  expect((await r.run(group)).code).toBe(1);
  await r.uncontrol("t3", "apply-exit");
  await r.desire("t3", "moved");
  await r.control("t5", "apply-exit", "1");
  const out = await r.run(group, github);
  expect(out.code).toBe(1);

  await t.step("the job summary: one row per run of the job", async () => {
    const summary = await Deno.readTextFile(file);
    expect(summary).toMatch(
      /^### chant-wave: wave 1 \(prod\), group t: exit 1$/m,
    );
    const rows = tableRows(summary);
    const failed = /^failed: \S.*t5.*$/;
    expect(rows.map((row) => [row[0], row[2], row[3].replace(failed, "…")]))
      .toEqual([
        ["t1", "t1: none", "already applied"],
        ["t2", "t2: empty", "no changes"],
        ["t3", "t3: none", "refused: plan moved"],
        ["t4", "t4: none", "applied"],
        ["t5", "t5: none", "…"],
        ["t6", "t6: none", "untried"],
      ]);
    expect(rows[4][3]).toMatch(failed);
    for (const row of rows) expect(row[1]).toMatch(new RegExp(`^${DIGEST}$`));
    expect(summary).not.toContain("| z1 |");
  });

  await t.step("the run summary table lists the refused run too", () => {
    const table = out.stderr.slice(
      out.stderr.indexOf('summary of wave 1 "prod":\n'),
    ).split("\n").slice(1, 8);
    expect(table[0]).toMatch(/^ {2}target +plan +outcome +took$/);
    const cells = table.slice(1).map((line) =>
      line.trim().replace(/ \d+s$/, " (took)").split(/ {2,}/)
    );
    expect(cells).toEqual([
      ["t1", "t1: none", "skipped: already applied"],
      ["t2", "no changes", "skipped: no changes"],
      ["t3", "t3: moved", "refused: plan moved"],
      ["t4", "t4: none", "applied", "(took)"],
      ["t5", "t5: none", "failed", "(took)"],
      ["t6", "t6: none", "untried"],
    ]);
  });
});

Deno.test("a waiting summary gives the rules and the tally beside the approve command", async (t) => {
  const wave = { name: "prod", runs: ["eu", "us"], shares: 2 };
  await using r = await rollout(specOf([wave], { approvers: { required: 2 } }));
  const file = `${r.repo.root}/summary.md`;
  const github = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: file };
  const decide = ["run", ...SPEC, "--wave", "1", "--decide"];
  const first = await r.run(decide);
  expect(first.code).toBe(3);
  const digest = plannedDigest(first.stderr);
  expect((await r.run([...approveLine(first.stderr), "--by", "ann"])).code)
    .toBe(0);
  const rules =
    `Approval rules at base: ledger, 2 distinct approvers, anyone, self-approval allowed (read at ${
      r.base.slice(0, 12)
    }: wave 1 "prod" by name and position)`;
  const tally = `Approvals so far: 1 of 2 approvals of ${digest}: ann`;

  await t.step("the deciding job", async () => {
    const out = await r.run(decide, github);
    expect(out.code).toBe(3);
    const summary = await Deno.readTextFile(file);
    const approve = `chant-wave approve tf tf-wave-1 --plan ${digest}`;
    expect(summary).toContain(
      `\n\n${rules}\n\n${tally}\n\n\`\`\`\n${approve}\n\`\`\`\n\n`,
    );
    expect(tableRows(summary).map((row) => [row[0], row[3]])).toEqual([
      ["eu", "waiting"],
      ["us", "waiting"],
    ]);
  });

  await t.step("a share job of the waiting decision", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"], {
      ...github,
    });
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`  1 of 2 approvals of ${digest}: ann\n`);
    const summary = await Deno.readTextFile(file);
    const section = summary.slice(summary.lastIndexOf("### chant-wave: "));
    expect(section).toMatch(
      /^### chant-wave: wave 1 \(prod\), share 2: exit 3\n/,
    );
    expect(section).toContain(`\n\n${rules}\n\n${tally}\n\n`);
    expect(section).toContain(
      `\`\`\`\nchant-wave approve tf tf-wave-1 --plan ${digest}\n\`\`\`\n`,
    );
    expect(tableRows(summary).map((row) => [row[0], row[3]])).toEqual([
      ["us", "waiting"],
    ]);
  });
});

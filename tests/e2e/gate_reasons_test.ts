// End to end through the binary: a waiting or approved gate reports only what
// bears on this decision (issue 24): the approval of an earlier change, all of
// whose plans applied, is not named on every new change; a tally names as not
// counted only those who approved this digest; every counted approver is named.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  approveLine,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";

const RUN = ["run", ...SPEC, "--wave", "1"];

Deno.test("the approval of an earlier change is not named when a new change waits", async () => {
  await using r = await rollout(specOf([{ name: "prod", runs: ["eu", "us"] }]));
  const first = await r.run(RUN);
  expect((await r.run([...approveLine(first.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(RUN)).code).toBe(0);
  await r.desire("eu", "v2");
  await r.repo.commit("the next change");
  const out = await r.run(RUN);
  expect(out.code).toBe(3);
  const digest = plannedDigest(out.stderr);
  // The first change's approval was spent: the gate is settled first.
  expect(out.stderr).toMatch(
    new RegExp(
      `gate tf-wave-1: waiting: the policy is "always"\n  gate "tf-wave-1" has no approval for ${digest}\n` +
        "note: the approval of an earlier rollout was spent \\(its plans applied\\), so it no longer counts here\n" +
        "then approve: ",
    ),
  );
  expect(out.stderr).not.toContain("is approved for");
  expect(out.stderr).not.toContain("its plan moved since the approval");
});

Deno.test("a tally names as not counted only approvals of this digest", async () => {
  await using keys = await tempDir();
  const ann = await makeKey(keys.path, "ann");
  await using r = await rollout(
    specOf([{ name: "prod", runs: ["eu", "us"] }], {
      approval: "sealed",
      approvers: { required: 2 },
    }),
    {
      files: {
        ".chant-wave/allowed_signers": signersFile({ "ann@example.com": ann }),
      },
    },
  );
  const first = await r.run(RUN);
  expect(first.code).toBe(3);
  const d1 = plannedDigest(first.stderr);
  const approve = approveLine(first.stderr).slice(0, -1); // without --sign
  expect(
    (await r.run([...approve, "--by", "ann@example.com", `--sign=${ann.path}`]))
      .code,
  ).toBe(0);
  expect((await r.run([...approve, "--by", "dana@example.com"])).code).toBe(0);
  const again = await r.run(RUN);
  expect(again.code).toBe(3);
  expect(again.stderr).toContain(
    `  1 of 2 approvals of ${d1}: ann@example.com; not counted: dana@example.com (not signed)\n`,
  );
  // eu now plans no change: the approvals of d1 still cover what is left (us),
  // but dana never approved d2.
  await r.desire("eu", "empty");
  const out = await r.run(RUN);
  expect(out.code).toBe(3);
  const d2 = plannedDigest(out.stderr);
  expect(d2).not.toBe(d1);
  expect(out.stderr).toContain(
    `  1 of 2 approvals of ${d2}: ann@example.com\n`,
  );
  expect(out.stderr).not.toContain("dana");
});

Deno.test("an approved gate names every counted approver", async () => {
  await using r = await rollout(specOf([{ name: "prod", runs: ["eu"] }]));
  const waiting = await r.run(RUN);
  const digest = plannedDigest(waiting.stderr);
  for (const by of ["ann", "bob"]) {
    expect((await r.run([...approveLine(waiting.stderr), "--by", by])).code)
      .toBe(0);
  }
  const out = await r.run(RUN);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    `gate tf-wave-1: approved by ann, bob for ${digest}`,
  );
  const status = await r.run(["status", ...SPEC]);
  expect(status.stdout).toMatch(/\n1 +prod +approved by ann, bob +at /);
});

Deno.test("a new rollout names no approval of the one before as a plan that moved, with two approvers and job groups", async () => {
  await using r = await rollout(specOf([{
    name: "prod",
    runs: ["eu-01", "us-01"],
    approvers: { required: 2 },
    jobs: [{ name: "eu", runs: ["eu-*"] }, { name: "us", runs: ["us-*"] }],
  }]));
  const decide = ["run", ...SPEC, "--wave", "1", "--decide"];
  const first = await r.run(decide);
  expect(first.code).toBe(3);
  for (const by of ["alice", "bob"]) {
    expect((await r.run([...approveLine(first.stderr), "--by", by])).code)
      .toBe(0);
  }
  expect((await r.run(decide)).code).toBe(0);
  for (const group of ["eu", "us"]) {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--group", group]);
    expect(out.code).toBe(0);
  }
  await r.desire("eu-01", "v2");
  await r.desire("us-01", "v2");
  await r.repo.commit("the next rollout");
  const out = await r.run(decide);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    new RegExp(
      `gate tf-wave-1: waiting: the policy is "always"\n  gate "tf-wave-1" has no approval for ${
        plannedDigest(out.stderr)
      }\n` +
        "note: the 2 approvals of earlier rollouts were spent \\(their plans applied\\), so they no longer count here\n" +
        "then approve: ",
    ),
  );
  expect(out.stderr).not.toContain("is approved for");
  expect(out.stderr).not.toContain("its plan moved since the approval");
});

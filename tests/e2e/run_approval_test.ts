// End to end through the binary: approving a gate for one set digest, applying
// each approved plan once (SPEC.md §4.5, §4.7, §5.3, §10), revoke, and what
// status and the ledger log show.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  errorLines,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const GATED = { name: "prod", gate: "always", runs: ["eu", "us", "ap"] };
const DIGEST = /^sha256:[0-9a-f]{64}$/;

Deno.test("run applies a wave approved with the printed command; each plan applies once", async (t) => {
  await using r = await rollout(specOf([GATED]));
  let digest = "";

  await t.step(
    "the first run waits and prints the approve command",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      digest = plannedDigest(out.stderr);
      expect(approveLine(out.stderr)).toEqual([
        "approve",
        "tf",
        "tf-wave-1",
        "--plan",
        digest,
      ]);
    },
  );

  await t.step("the printed command approves exactly that digest", async () => {
    const out = await r.run([
      ...approveLine(await waitingLog()),
      "--by",
      "ann",
    ]);
    expect(out).toEqual({
      code: 0,
      stdout: "",
      stderr: `approved tf-wave-1 of tf for ${digest} by ann\n` +
        "this approves that plan only; a job whose fresh plan differs refuses it\n" +
        "  it covers 3 plans: ap (ap: none), eu (eu: none), us (us: none)\n" +
        `  recorded in directory ledger ${r.path}/.chant/ledger\n`,
    });
  });

  await t.step("the same wave now applies every run", async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `gate tf-wave-1: approved by ann for ${digest} (the policy is "always")\n`,
    );
    expect((await r.applied()).sort()).toEqual(["ap", "eu", "us"]);
    const decision = await r.readJson(".chant/waves/tf/wave-1.json");
    expect(decision).toMatchObject({ status: "approved", approvedBy: "ann" });
    const records = await r.records("tf-wave-1");
    const claims = records.filter((record) => record.kind === "claim");
    expect(claims).toHaveLength(3);
    for (const claim of claims) {
      expect(claim).toMatchObject({
        decisionId: decision.decisionId,
        approvalId: decision.approvalId,
      });
    }
    const outcomes = records.filter((record) => record.kind === "run-outcome")
      .flatMap((record) => record.runs as { outcome: string }[]);
    expect(outcomes.map((run) => run.outcome)).toEqual(["ok", "ok", "ok"]);
  });

  await t.step(
    "a new decision of the same plans applies nothing again, exit 0",
    async () => {
      await r.clearApplied();
      const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
      expect(out.code).toBe(0);
      expect(plannedDigest(out.stderr)).toBe(digest);
      expect(out.stderr).toContain("skipped: eu: already applied\n");
      expect(JSON.parse(out.stdout).skipped).toEqual([
        { target: "ap", reason: "already applied" },
        { target: "eu", reason: "already applied" },
        { target: "us", reason: "already applied" },
      ]);
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "after a revoke and a fresh approval the plans apply again",
    async () => {
      expect((await r.run(["revoke", "tf", "tf-wave-1"])).code).toBe(0);
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      expect(
        (await r.run([...approveLine(waiting.stderr), "--by", "bob"])).code,
      ).toBe(0);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `gate tf-wave-1: approved by bob for ${digest}`,
      );
      expect((await r.applied()).sort()).toEqual(["ap", "eu", "us"]);
    },
  );

  await t.step(
    "a second revoke folds what the first one ended; ledger log keeps it",
    async () => {
      const before = await r.records("tf-wave-1");
      const out = await r.run(["revoke", "tf", "tf-wave-1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        /^ {2}folded \d+ records the revoke before this one ended into summary [0-9a-f]{12}$/m,
      );
      const after = await r.records("tf-wave-1");
      expect(after.map((record) => record.kind)).toContain("folded");
      expect(after.length).toBeLessThan(before.length);
      const log = await r.run(["ledger", "log", "tf", "tf-wave-1", "--json"]);
      expect(log.code).toBe(0);
      const logged = JSON.stringify(JSON.parse(log.stdout));
      for (const record of before) expect(logged).toContain(record.id);
      // What the second revoke ended still names its approval when waiting.
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      expect(waiting.stderr).toMatch(
        new RegExp(
          `^  the approval of ${digest} by bob was revoked at \\S+; approve again$`,
          "m",
        ),
      );
    },
  );

  async function waitingLog(): Promise<string> {
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--dry-run"]);
    expect(out.code).toBe(3);
    return out.stderr;
  }
});

Deno.test("run lets every share job of one approved decision apply", async (t) => {
  await using r = await rollout(specOf([{ ...GATED, shares: 2 }]));
  let digest = "";

  await t.step("the deciding job waits, then decides approved", async () => {
    const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    expect(waiting.code).toBe(3);
    digest = plannedDigest(waiting.stderr);
    const share = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
    expect(share.code).toBe(3);
    expect(share.stderr).toContain(
      `then approve: chant-wave approve tf tf-wave-1 --plan ${digest}\n`,
    );
    expect(
      (await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code,
    ).toBe(0);
    const decided = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
    expect(decided.code).toBe(0);
    expect(decided.stderr).toContain("decided: .chant/waves/tf/wave-1.json\n");
    expect(await r.applied()).toEqual([]);
  });

  await t.step(
    "share 1 and share 2 both apply under the one approval",
    async () => {
      const one = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
      expect(one.code).toBe(0);
      expect(one.stderr).toContain("slice: ap, eu\n");
      const two = await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"]);
      expect(two.code).toBe(0);
      expect(two.stderr).toContain("slice: us\n");
      expect(await r.applied()).toEqual(["ap", "eu", "us"]);
      const { decisionId } = await r.readJson(".chant/waves/tf/wave-1.json");
      const claims = (await r.records("tf-wave-1")).filter((record) =>
        record.kind === "claim"
      );
      expect(new Set(claims.map((record) => record.decisionId))).toEqual(
        new Set([decisionId]),
      );
    },
  );

  await t.step(
    "a share job re-run applies nothing twice",
    async () => {
      await r.clearApplied();
      const again = await r.run([
        "run",
        ...SPEC,
        "--wave",
        "1",
        "--share",
        "2",
      ]);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain("skipped: us: already applied\n");
      expect(await r.applied()).toEqual([]);
    },
  );

  await t.step(
    "a new deciding job is covered by the same approval; its shares skip what applied",
    async () => {
      const decide = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
      expect(decide.code).toBe(0);
      const share = await r.run([
        "run",
        ...SPEC,
        "--wave",
        "1",
        "--share",
        "1",
      ]);
      expect(share.code).toBe(0);
      expect(await r.applied()).toEqual([]);
    },
  );
});

Deno.test("run does not count an approval of another digest and names both digests", async () => {
  await using r = await rollout(specOf([GATED]));
  const first = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(first.code).toBe(3);
  const old = plannedDigest(first.stderr);
  expect((await r.run([...approveLine(first.stderr), "--by", "ann"])).code)
    .toBe(0);
  await r.desire("us", "replicas = 3");
  const second = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(second.code).toBe(3);
  const now = plannedDigest(second.stderr);
  expect(now).not.toBe(old);
  expect(second.stderr).toContain(
    `  gate "tf-wave-1" is approved for ${old} by ann, but this plan is ${now}\n`,
  );
  expect(second.stderr).toContain(
    `then approve: chant-wave approve tf tf-wave-1 --plan ${now}\n`,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("approve, revoke, status and ledger log work on the directory ledger", async (t) => {
  await using r = await rollout(specOf([GATED]));
  let first = "";
  let second = "";

  await t.step(
    "approve of a gate nothing waited on yet is exit 2",
    async () => {
      const out = await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"]);
      expect(out.code).toBe(2);
      expect(errorLines(out.stderr)).toEqual([
        `error: rollout "tf" has no gate in directory ledger ${r.path}/.chant/ledger`,
      ]);
    },
  );

  await t.step("approve --plan with a malformed digest is exit 2", async () => {
    for (
      const bad of [
        "sha256:" + "A".repeat(64),
        "sha256:" + "a".repeat(63),
        "a".repeat(64),
        "sha512:" + "a".repeat(64),
      ]
    ) {
      const out = await r.run([
        "approve",
        "tf",
        "tf-wave-1",
        "--plan",
        bad,
        "--by",
        "ann",
      ]);
      expect(out.code).toBe(2);
      expect(out.stderr).toBe(
        `error: "--plan" must be sha256:<64 lowercase hex>, not "${bad}"\n`,
      );
    }
    expect(await r.records("tf-wave-1")).toEqual([]);
  });

  await t.step(
    "approve without --plan takes the newest pending digest",
    async () => {
      const one = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(one.code).toBe(3);
      first = plannedDigest(one.stderr);
      await r.desire("eu", "a change");
      const two = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(two.code).toBe(3);
      second = plannedDigest(two.stderr);
      expect(second).not.toBe(first);
      const out = await r.run(["approve", "tf", "tf-wave-1"], {
        USER: "carol",
      });
      expect(out.code).toBe(0);
      // --by defaults to git's user.email (the test repo's) before $USER.
      expect(out.stderr).toContain(
        `approved tf-wave-1 of tf for ${second} by test@chant.invalid\n`,
      );
      const ci = await r.run(["approve", "tf", "tf-wave-1", "--plan", first], {
        GITHUB_ACTIONS: "true",
        GITHUB_ACTOR: "octocat",
        GITHUB_STEP_SUMMARY: "/dev/null",
      });
      expect(ci.stderr).toContain(`for ${first} by octocat\n`);
    },
  );

  await t.step("revoke makes a standing approval stop counting", async () => {
    const revoked = await r.run([
      "revoke",
      "tf",
      "tf-wave-1",
      "--note",
      "oops",
    ]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe("");
    expect(revoked.stderr).toMatch(
      /^revoked tf-wave-1 of tf: earlier approvals and pending facts no longer count\n {2}ended approvals: [0-9a-f]{32}, [0-9a-f]{32}\n$/,
    );
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(3);
    expect(plannedDigest(out.stderr)).toBe(second);
    expect(out.stderr).toMatch(
      new RegExp(
        `^  the approval of ${second} by test@chant\\.invalid was revoked at \\S+; approve again$`,
        "m",
      ),
    );
    expect(await r.applied()).toEqual([]);
    // The pending fact before the revoke no longer stands: a new one was written.
    const kinds = (await r.records("tf-wave-1")).map((record) => record.kind);
    expect(kinds).toEqual([
      "pending",
      "pending",
      "approval",
      "approval",
      "expired",
      "pending",
    ]);
  });

  await t.step(
    "status --json shows the decision, the pending fact and approvals",
    async () => {
      const approved = await r.run([
        "approve",
        "tf",
        "tf-wave-1",
        "--by",
        "dave",
      ]);
      expect(approved.code).toBe(0);
      const applied = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(applied.code).toBe(0);
      const out = await r.run(["status", ...SPEC, "--json"]);
      expect(out.code).toBe(0);
      const status = JSON.parse(out.stdout);
      const { decisionId } = await r.readJson(".chant/waves/tf/wave-1.json");
      expect(status).toMatchObject({
        name: "tf",
        waves: [{
          wave: 1,
          name: "prod",
          gate: "tf-wave-1",
          decision: { decisionId, status: "approved", digest: second },
        }],
      });
      // The pending fact is approved: it no longer waits, so it is not shown.
      expect(status.waves[0].pending).toBeUndefined();
      const approvals = status.waves[0].approvals as {
        by: string;
        planDigest: string;
        appliedBy: string[];
      }[];
      // Only approvals since the last revoke are listed.
      expect(approvals.map((a) => [a.by, a.planDigest, a.appliedBy])).toEqual([
        ["dave", second, [decisionId]],
      ]);
      const human = await r.run(["status", ...SPEC]);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(
        `  approval: ${second.slice(0, 19)} by dave at `,
      );
      expect(human.stdout).toMatch(
        /\n1 +prod +approved by dave +at [0-9a-f]{12} +-\n/,
      );
      expect(human.stdout).toContain(
        `next: nothing waits for an approval, and every wave has completed at ${
          r.head.slice(0, 12)
        }\n`,
      );
      expect(human.stdout).toContain(
        "plans: 3 applied, 0 failed, 0 unsettled, 0 left\n",
      );
    },
  );

  await t.step("ledger log lists the gate's records, newest last", async () => {
    const out = await r.run(["ledger", "log"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("tf tf-wave-1");
    const kinds = lines.slice(1).map((line) => line.trim().split(/\s+/)[1]);
    // Outcomes are recorded as runs end, so one or more run-outcome records,
    // and the job's wave outcome last.
    expect(kinds.filter((kind) => !kind.endsWith("-outcome"))).toEqual([
      "pending",
      "pending",
      "approval",
      "approval",
      "expired",
      "pending",
      "approval",
      "claim",
      "claim",
      "claim",
    ]);
    expect(kinds.slice(-2).sort()).toEqual(["run-outcome", "wave-outcome"]);
    const stamps = lines.slice(1).map((line) => line.trim().split(/\s+/)[0]);
    expect([...stamps].sort()).toEqual(stamps);
    const records = await r.records("tf-wave-1");
    expect(records).toHaveLength(kinds.length);
    for (const record of records) {
      if ("planDigest" in record) expect(record.planDigest).toMatch(DIGEST);
    }
  });
});

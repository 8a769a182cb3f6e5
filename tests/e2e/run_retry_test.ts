// End to end through the binary: a retry needs no second approval, each
// approved plan applies at most once, and re-running a job that succeeded does
// nothing and succeeds (SPEC.md §10).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  BINARY,
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { killMidApply, settledTargets } from "../_helpers/kill_mid_apply.ts";

const WAVE = { name: "prod", gate: "always", runs: ["t1", "t2", "t3"] };

Deno.test("a failed apply is retried under the same approval; nothing applies twice", async (t) => {
  await using r = await rollout(specOf([WAVE]));
  for (const target of ["t1", "t2", "t3"]) await r.desire(target, "v2");
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);

  await t.step(
    "the first run: t2's apply fails, the others apply",
    async () => {
      await r.control("t2", "apply-exit", "1");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect((await r.applied()).sort()).toEqual(["t1", "t3"]);
      // The way on is named: fix, and run the same job again.
      expect(out.stderr).toContain(
        "error: 1 run failed to apply\n" +
          "then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 1\n" +
          "the approval still covers t2 while its plan stays the same; what applied does not apply again\n",
      );
    },
  );
  await t.step("the re-run applies only t2, with no new approval", async () => {
    await r.uncontrol("t2", "apply-exit");
    await r.clearApplied();
    const out = await r.run(["run", ...SPEC, "--wave", "1", "--json"]);
    expect(out.code).toBe(0);
    expect(await r.applied()).toEqual(["t2"]);
    expect(JSON.parse(out.stdout)).toMatchObject({
      applied: ["t2"],
      skipped: [
        { target: "t1", reason: "already applied" },
        { target: "t3", reason: "already applied" },
      ],
    });
    const approvals = (await r.records("tf-wave-1")).filter((x) =>
      x.kind === "approval"
    );
    expect(approvals).toHaveLength(1);
  });
  await t.step("a third run applies nothing and exits 0", async () => {
    await r.clearApplied();
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(await r.applied()).toEqual([]);
  });
  await t.step("status shows every plan of the approval applied", async () => {
    const out = await r.run(["status", ...SPEC, "--json"]);
    expect(JSON.parse(out.stdout).waves[0].approvals[0].plans).toEqual({
      applied: 3,
      failed: 0,
      unsettled: 0,
      left: 0,
    });
  });
});

Deno.test("a plan that changed between the attempts is not covered: the job waits and names it", async () => {
  await using r = await rollout(specOf([WAVE]));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  await r.control("t2", "apply-exit", "1");
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(1);
  await r.uncontrol("t2", "apply-exit");
  await r.desire("t2", "changed since");
  await r.clearApplied();
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toMatch(
    /^ {2}t2: its plan moved since the approval of sha256:[0-9a-f]{64} by ann: approved sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64}$/m,
  );
  expect(await r.applied()).toEqual([]);
});

Deno.test("a share job retried after a failed apply applies under the same approval", async () => {
  await using r = await rollout(specOf([{ ...WAVE, shares: 2 }]));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);
  await r.control("t1", "apply-exit", "1");
  // share 1 holds t1 and t2; share 2 holds t3.
  const failed = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain(
    "error: 1 run failed: t1\n" +
      "then fix what failed and run this job again (in CI, retry it): chant-wave run --spec waves.json --wave 1 --share 1\n" +
      "the approval still covers t1 while its plan stays the same; what applied does not apply again\n",
  );
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"])).code)
    .toBe(0);
  expect((await r.applied()).sort()).toEqual(["t2", "t3"]);
  await r.uncontrol("t1", "apply-exit");
  await r.clearApplied();
  const retry = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
  expect(retry.code).toBe(0);
  expect(retry.stderr).toContain("skipped: t2: already applied\n");
  expect(await r.applied()).toEqual(["t1"]);
  const again = await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"]);
  expect(again.code).toBe(0);
  expect(await r.applied()).toEqual(["t1"]);
});

Deno.test("racing whole-wave jobs apply every run exactly once", async () => {
  for (let round = 0; round < 3; round++) {
    await using r = await rollout(specOf([WAVE]));
    const ledger = `${r.repo.root}/ledger`;
    const env = { CHANT_WAVE_LEDGER: ledger };
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"], env);
    expect(
      (await r.run([...approveLine(waiting.stderr), "--by", "ann"], env))
        .code,
    ).toBe(0);
    // Eight checkouts of the same commit share one ledger directory.
    const clones = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const path = `${r.repo.root}/clone-${i}`;
        await r.repo.gitIn(r.repo.root, "clone", "-q", r.path, path);
        return path;
      }),
    );
    const outs = await Promise.all(
      clones.map((cwd) =>
        new Deno.Command("/usr/bin/env", {
          args: [
            "-i",
            "PATH=/usr/bin:/bin",
            `CHANT_WAVE_LEDGER=${ledger}`,
            BINARY,
            "run",
            ...SPEC,
            "--wave",
            "1",
          ],
          cwd,
          stdout: "null",
          stderr: "piped",
        }).output()
      ),
    );
    const applied: string[] = [];
    for (const cwd of clones) {
      const log = await Deno.readTextFile(`${cwd}/applied.log`).catch(() => "");
      applied.push(...log.split("\n").filter(Boolean));
    }
    expect(applied.sort(), `round ${round}`).toEqual(["t1", "t2", "t3"]);
    for (const out of outs) expect([0, 1]).toContain(out.code);
  }
});

Deno.test("a job killed mid-apply leaves an unsettled claim: the next job refuses that run and retries the others", async () => {
  await using r = await rollout(specOf([{ ...WAVE, parallel: 3 }]));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  await r.control("t1", "apply-exit", "1");
  await r.control("t3", "apply-exit", "1");
  // Killed once t2 hangs and the failed outcomes of t1 and t3 are recorded.
  await killMidApply(r, "t2", {
    until: {
      what: "the outcomes of t1 and t3",
      check: async () => {
        const settled = await settledTargets(r, "tf-wave-1");
        return settled.includes("t1") && settled.includes("t3");
      },
    },
  });
  await r.uncontrol("t1", "apply-exit");
  await r.uncontrol("t3", "apply-exit");
  const next = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(next.code).toBe(1);
  expect(next.stderr).toMatch(
    /^failed: t2: already claimed under this approval by decision \S+ \(claim \S+ at \S+, no outcome yet\); if that job died, approve the plan again$/m,
  );
  expect((await r.applied()).sort()).toEqual(["t1", "t3"]);
});

/** The rows of the last job summary section's runs table: run and outcome. */
function summaryOutcomes(summary: string): string[][] {
  const section = summary.slice(summary.lastIndexOf("### chant-wave: "));
  return section.split("\n").filter((line) => line.startsWith("| "))
    .slice(2).map((line) => line.slice(2, -2).split(" | "))
    .map((cells) => [cells[0], cells[3]]);
}

/** The outcomes the wave's jobs recorded (SPEC.md §4.11), oldest first. */
async function waveOutcomes(r: Rollout, gate: string): Promise<string[]> {
  return (await r.records(gate)).filter((x) => x.kind === "wave-outcome")
    .map((x) => {
      const job = x.job as { kind: string; share?: number };
      return `${job.kind}${job.share ? ` ${job.share}` : ""}: ${x.outcome}`;
    });
}

Deno.test("re-running a green share job and a green whole-wave job: already applied, exit 0", async (t) => {
  await using r = await rollout(specOf([
    { ...WAVE, shares: 2 },
    { name: "eu", gate: "always", runs: ["w1", "w2"] },
  ], { order: "strict" }));
  // As with a real tool, a plan applied plans empty afterwards.
  for (const target of ["t1", "t2", "t3", "w1", "w2"]) {
    await r.desire(target, "v2");
    await r.control(target, "apply-desire", "empty");
  }
  const summary = `${r.repo.root}/summary.md`;
  const github = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
  const share1 = ["run", ...SPEC, "--wave", "1", "--share", "1"];
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);
  // share 1 holds t1 and t2; share 2 holds t3.
  expect((await r.run(share1)).code).toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"])).code)
    .toBe(0);
  expect((await r.applied()).sort()).toEqual(["t1", "t2", "t3"]);

  await t.step("the share job again: nothing applies, exit 0", async () => {
    await r.clearApplied();
    const out = await r.run(share1, github);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "skipped: t1: already applied\nskipped: t2: already applied\n",
    );
    expect(out.stderr).not.toContain("its plan moved");
    expect(out.stderr).toMatch(
      /^ {2}t1 +no changes +skipped: already applied/m,
    );
    expect(await r.applied()).toEqual([]);
    expect(summaryOutcomes(await Deno.readTextFile(summary))).toEqual([
      ["t1", "already applied"],
      ["t2", "already applied"],
    ]);
    expect(await waveOutcomes(r, "tf-wave-1")).toEqual([
      "share 1: applied",
      "share 2: applied",
      "share 1: nothing-to-do",
    ]);
  });

  await t.step(
    "the whole-wave job again: nothing applies, exit 0",
    async () => {
      const first = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(first.code).toBe(3);
      expect((await r.run([...approveLine(first.stderr), "--by", "ann"])).code)
        .toBe(0);
      expect((await r.run(["run", ...SPEC, "--wave", "2"])).code).toBe(0);
      expect(await r.applied()).toEqual(["w1", "w2"]);
      await r.clearApplied();
      const out = await r.run(["run", ...SPEC, "--wave", "2"], github);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        "skipped: w1: already applied\nskipped: w2: already applied\n",
      );
      expect(await r.applied()).toEqual([]);
      expect(summaryOutcomes(await Deno.readTextFile(summary))).toEqual([
        ["w1", "already applied"],
        ["w2", "already applied"],
      ]);
      expect(await waveOutcomes(r, "tf-wave-2")).toEqual([
        "wave: applied",
        "wave: nothing-to-do",
      ]);
    },
  );

  await t.step("status: every wave completed at HEAD", async () => {
    const out = await r.run(["status", ...SPEC]);
    expect(out.stdout.trimEnd().split("\n").at(-1)).toBe(
      `next: nothing waits for an approval, and every wave has completed at ${
        r.head.slice(0, 12)
      }`,
    );
  });

  await t.step("a plan that changed is still refused, exit 4", async () => {
    await r.uncontrol("t2", "apply-desire");
    await r.desire("t2", "v3");
    const out = await r.run(share1, github);
    expect(out.code).toBe(4);
    expect(out.stderr).toMatch(
      /^refused: t2: its plan moved since wave 1 was decided; decided sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64}$/m,
    );
    expect(out.stderr).toContain("skipped: t1: already applied\n");
    expect(await r.applied()).toEqual([]);
    expect(summaryOutcomes(await Deno.readTextFile(summary))).toEqual([
      ["t1", "already applied"],
      ["t2", "refused: plan moved"],
    ]);
    expect((await waveOutcomes(r, "tf-wave-1")).at(-1)).toBe(
      "share 1: failed",
    );
  });
});

Deno.test("an empty plan the ledger does not show applied under the decision's approval is still refused", async (t) => {
  await using r = await rollout(specOf([{ ...WAVE, shares: 2 }]));
  const share1 = ["run", ...SPEC, "--wave", "1", "--share", "1"];
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
    .toBe(0);

  await t.step("t1 went empty without being applied: refused", async () => {
    await r.desire("t1", "empty");
    const out = await r.run(share1);
    expect(out.code).toBe(4);
    expect(out.stderr).toMatch(
      /^refused: t1: its plan moved since wave 1 was decided; decided sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64} \(empty\)$/m,
    );
    expect(await r.applied()).toEqual(["t2"]);
  });

  await t.step(
    "t1 applied under another approval of the same plans: still refused",
    async () => {
      // A whole-wave job of the same plans, approved again by bob, applies
      // t1 under bob's approval; the share job still holds the decision
      // naming ann's (the deciding job's artifact).
      const record = `${r.path}/.chant/waves/tf/wave-1.json`;
      const decided = await Deno.readTextFile(record);
      await r.desire("t1", "none");
      expect(
        (await r.run([...approveLine(waiting.stderr), "--by", "bob"])).code,
      ).toBe(0);
      await r.clearApplied();
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
      expect(await r.applied()).toContain("t1");
      await Deno.writeTextFile(record, decided);
      await r.desire("t1", "empty");
      await r.clearApplied();
      const out = await r.run(share1);
      expect(out.code).toBe(4);
      expect(out.stderr).toMatch(/^refused: t1: its plan moved/m);
      expect(await r.applied()).toEqual([]);
    },
  );
});

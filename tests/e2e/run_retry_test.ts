// End to end through the binary: a retry needs no second approval, and each
// approved plan applies at most once (SPEC.md §10).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  BINARY,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

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
  expect((await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"])).code)
    .toBe(1);
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
  await r.control("t2", "apply-hang");
  const child = new Deno.Command("/usr/bin/env", {
    args: ["-i", "PATH=/usr/bin:/bin", BINARY, "run", ...SPEC, "--wave", "1"],
    cwd: r.path,
    stdout: "null",
    stderr: "null",
  }).spawn();
  // Wait for t2 to hang and for the failed outcomes of t1 and t3 to be recorded.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const records = await r.records("tf-wave-1");
    const settled = records.filter((x) => x.kind === "run-outcome")
      .flatMap((x) => x.runs as { target: string }[]).map((x) => x.target);
    const hung = await Deno.stat(`${r.path}/ctl/t2.pid`).then(
      () => true,
      () => false,
    );
    if (hung && settled.includes("t1") && settled.includes("t3")) break;
    if (Date.now() > deadline) throw new Error("t2 never hung");
    await new Promise((done) => setTimeout(done, 50));
  }
  child.kill("SIGKILL");
  await child.status;
  const tool = Number(await Deno.readTextFile(`${r.path}/ctl/t2.pid`));
  Deno.kill(tool, "SIGKILL");
  await r.uncontrol("t1", "apply-exit");
  await r.uncontrol("t3", "apply-exit");
  await r.uncontrol("t2", "apply-hang");
  const next = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(next.code).toBe(1);
  expect(next.stderr).toMatch(
    /^failed: t2: already claimed under this approval by decision \S+ \(claim \S+ at \S+, no outcome yet\); if that job died, approve the plan again$/m,
  );
  expect((await r.applied()).sort()).toEqual(["t1", "t3"]);
});

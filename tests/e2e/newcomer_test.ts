// End to end through the binary, as a new user would go: every command
// chant-wave prints works as printed, `approve` refuses what nobody waits for,
// `show` lists the plans, and a job ends with a summary (issue 18).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import {
  approveLine,
  errorLines,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PROD = { name: "prod", gate: "always", runs: ["eu", "us"] };

Deno.test("the printed approve command carries the ledger and works as printed", async () => {
  await using r = await rollout(specOf([PROD]));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const waiting = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--ledger",
    "git",
  ]);
  expect(waiting.code).toBe(3);
  const printed = approveLine(waiting.stderr);
  expect(printed.slice(-2)).toEqual(["--ledger", "git"]);
  const approved = await r.run([...printed, "--by", "ann"]);
  expect(approved.code).toBe(0);
  expect(approved.stderr).toContain(
    `  recorded in git ledger chant/ledger of "origin"\n`,
  );
  expect(approved.stderr).toContain(
    "  it covers 2 plans: eu (eu: none), us (us: none)\n",
  );
  const applied = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--ledger",
    "git",
  ]);
  expect(applied.code).toBe(0);
});

Deno.test("approve finds the repository's ledger from a subdirectory", async () => {
  await using r = await rollout(specOf([PROD]), { files: { "sub/keep": "" } });
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(3);
  const out = await runBinary(["approve", "tf", "tf-wave-1", "--by", "ann"], {
    cwd: `${r.path}/sub`,
  });
  expect(out.code).toBe(0);
  await expect(Deno.stat(`${r.path}/sub/.chant`)).rejects.toBeInstanceOf(
    Deno.errors.NotFound,
  );
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
});

Deno.test("approve refuses what nobody waits for, and takes --spec --wave", async (t) => {
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["d"] }, PROD]),
  );
  const waiting = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  await t.step("an unknown gate: exit 2 with did-you-mean", async () => {
    const out = await r.run(["approve", "tf", "tf-wave-3", "--plan", digest]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)).toEqual([
      'error: gate "tf-wave-3" of "tf" is not in directory ledger ' +
      `${r.path}/.chant/ledger; did you mean "tf-wave-2"?`,
    ]);
  });
  await t.step("an unknown rollout: exit 2 with did-you-mean", async () => {
    const out = await r.run(["approve", "tff", "tf-wave-2"]);
    expect(out.code).toBe(2);
    expect(errorLines(out.stderr)[0]).toMatch(
      /^error: rollout "tff" has no gate in directory ledger .*; did you mean "tf"\?$/,
    );
  });
  await t.step("a digest that is not the pending one: a warning", async () => {
    const other = `sha256:${"0".repeat(64)}`;
    const out = await r.run([
      "approve",
      "tf",
      "tf-wave-2",
      "--plan",
      other,
      "--by",
      "x",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `warning: gate "tf-wave-2" waits for ${digest}, not ${other}; this approval covers only the plans of ${other}\n`,
    );
  });
  await t.step("--spec F --wave NAME approves the pending plans", async () => {
    const out = await r.run([
      "approve",
      ...SPEC,
      "--wave",
      "prod",
      "--by",
      "ann",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `approved tf-wave-2 of tf for ${digest} by ann`,
    );
    expect(
      (await r.run(["approve", ...SPEC, "--wave", "qa", "--by", "ann"])).stderr,
    ).toContain('error: wave "qa" is not in "waves.json"');
  });
  await t.step(
    "plans already applied: a warning that they may apply again",
    async () => {
      expect((await r.run(["run", ...SPEC, "--wave", "2"])).code).toBe(0);
      const again = await r.run([
        "approve",
        ...SPEC,
        "--wave",
        "2",
        "--plan",
        digest,
        "--by",
        "bob",
      ]);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(
        new RegExp(
          `warning: the plans of ${digest} were applied under the approval by ann at \\S+; this new approval lets them apply again\n`,
        ),
      );
    },
  );
});

Deno.test("show lists the plans a waiting wave would apply", async () => {
  await using r = await rollout(specOf([PROD]));
  await r.desire("us", "destroy the bucket");
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  const out = await r.run(["show", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(out.stdout).toBe(
    `tf-wave-1 of tf waits for ${digest}\n` +
      out.stdout.split("\n")[1] + "\n" +
      "  target  plan      summary\n" +
      "  eu      changes   eu: none\n" +
      "  us      DESTROYS  us: destroy the bucket\n" +
      `then approve: chant-wave approve tf tf-wave-1 --plan ${digest}\n`,
  );
  const json = JSON.parse(
    (await r.run(["show", "tf", "tf-wave-1", "--json"])).stdout,
  );
  expect(json).toMatchObject({ digest, approved: false });
  expect(json.plans[1]).toMatchObject({ target: "us", destructive: true });
});

Deno.test("a share job after the approval goes on under it; exit 4 says what next", async () => {
  await using r = await rollout(specOf([{ ...PROD, shares: 2 }]));
  const waiting = await r.run(["run", ...SPEC, "--wave", "1", "--decide"]);
  expect((await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code)
    .toBe(0);
  const share = await r.run(["run", ...SPEC, "--wave", "1", "--share", "1"]);
  expect(share.code).toBe(0);
  expect(share.stderr).toContain(
    'wave 1 "prod": approved since it was decided, by ann\n',
  );
  expect(share.stderr).not.toContain("then approve:");
  expect(await r.applied()).toEqual(["eu"]);
  await r.desire("us", "moved");
  const moved = await r.run(["run", ...SPEC, "--wave", "1", "--share", "2"]);
  expect(moved.code).toBe(4);
  expect(moved.stderr).toContain(
    "then decide again (it plans the moved runs afresh, and waits for an approval if they need one): chant-wave run --spec waves.json --wave 1 --decide\n",
  );
});

Deno.test("a first commit has no base: the hint works as given", async () => {
  await using repo = await tempRepo({
    "waves.json": JSON.stringify(
      specOf([{ name: "dev", gate: "never", runs: ["d"] }]),
    ),
    ".gitignore": ".chant/\napplied.log\n",
  });
  await repo.commit("first");
  const out = await runBinary(["run", ...SPEC, "--wave", "1"], {
    cwd: repo.path,
  });
  expect(out.code).toBe(2);
  expect(out.stderr).toContain("hint: pass --base HEAD");
  const again = await runBinary([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--base",
    "HEAD",
  ], {
    cwd: repo.path,
  });
  expect(again.code).toBe(0);
});

Deno.test("a job says when the change's gate differs from the gate at base, and ends with a summary", async () => {
  const runs = Array.from({ length: 11 }, (_, i) => `r${i}`);
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs }]),
    {
      headSpec: specOf([{ name: "dev", gate: "always", runs }]),
    },
  );
  await r.desire("r0", "empty");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    'note: this change says gate "always" for wave 1 "dev"; the gate is read at base, so "never" holds for this change, and "always" for a change based on it\n',
  );
  expect(out.stderr).toMatch(/^\[10\/10\] r\d+: applied$/m);
  expect(out.stderr).toContain('summary of wave 1 "dev":\n');
  expect(out.stderr).toMatch(/^ {2}target +plan +outcome +took$/m);
  expect(out.stderr).toMatch(/^ {2}r0 +no changes +skipped: no changes *$/m);
  expect(out.stderr).toMatch(/^ {2}r1 +r1: none +applied +\d+s$/m);
});

Deno.test("status shows a table, only what still waits, and a next step that works as printed", async (t) => {
  const DEV = { name: "dev", gate: "never", runs: ["d1"] };
  await using r = await rollout(specOf([DEV, PROD]));
  expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
  const waiting = await r.run(["run", ...SPEC, "--wave", "2"]);
  expect(waiting.code).toBe(3);
  const digest = plannedDigest(waiting.stderr);
  let next: string[][] = [];
  await t.step(
    "a wave that waits: its short digest, approve next",
    async () => {
      const out = await r.run(["status", ...SPEC]);
      expect(out.code).toBe(0);
      const lines = out.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(
        /^wave +name +decision here +completed +waits for an approval of$/,
      );
      expect(lines[1]).toMatch(/^1 +dev +not-required +at [0-9a-f]{12} +-$/);
      expect(lines[2]).toMatch(
        new RegExp(
          `^2 +prod +waiting +never +${digest.slice(0, 19)} \\(2 plans\\)$`,
        ),
      );
      const last = lines.at(-1)!;
      expect(last).toMatch(/^next: review and approve wave 2 "prod": /);
      next = last.replace(/^next: [^:]+: /, "").split(", then ")
        .map((command) => command.split(" "));
      expect(next.map((words) => words.slice(0, 2))).toEqual([
        ["chant-wave", "show"],
        ["chant-wave", "approve"],
      ]);
    },
  );
  await t.step("--wave shows one wave", async () => {
    const out = await r.run(["status", ...SPEC, "--wave", "dev"]);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain("prod");
    expect(out.stdout.trimEnd().split("\n").at(-1)).toBe(
      `next: nothing waits for an approval, and every wave has completed at ${
        r.head.slice(0, 12)
      }`,
    );
    const unknown = await r.run(["status", ...SPEC, "--wave", "prdo"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "prod"?');
  });
  await t.step(
    "the printed commands, run as printed, move the wave on",
    async () => {
      const show = await r.run(next[0].slice(1));
      expect(show.code).toBe(0);
      expect(show.stdout).toContain("eu");
      const approve = await r.run([...next[1].slice(1), "--by", "ann"]);
      expect(approve.code).toBe(0);
      const status = await r.run(["status", ...SPEC]);
      // Approved: the pending fact no longer waits, so it is not shown.
      expect(status.stdout).toMatch(/\n2 +prod +waiting +never +-\n/);
      expect(status.stdout).not.toContain("  waiting: ");
      expect(status.stdout.trimEnd().split("\n").at(-1)).toBe(
        'next: run wave 2 "prod": chant-wave run --spec waves.json --wave 2',
      );
      const applied = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(applied.code).toBe(0);
      expect(await r.applied()).toEqual(["d1", "eu", "us"]);
    },
  );
});

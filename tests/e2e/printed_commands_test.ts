// End to end through the binary: printed commands work as printed (issue 24).
// The spec may name its ledger; `jobs` prints what the pipelines run, and every
// command it leads to reaches the same ledger; a change cannot point `run` at a
// ledger of its own (SPEC.md §4.12); an empty directory ledger beside the git
// ledger says so; a sealed gate's approve line signs.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary, tempDir } from "../_helpers/binary.ts";
import {
  approveLine,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
  TOOL,
} from "../_helpers/rollout.ts";
import { makeKey, signersFile } from "../_helpers/ssh_key.ts";
import { TEST_USER } from "../_helpers/temp_repo.ts";

const PROD = { name: "prod", runs: ["eu"] };

/** The words of a line that starts with `chant-wave`, after it. */
function commandOf(line: string): string[] {
  const at = line.indexOf("chant-wave ");
  expect(at).toBeGreaterThan(-1);
  return line.slice(at).trim().split(/\s+/).slice(1);
}

Deno.test("a spec that names the git ledger: what jobs prints and what it leads to all use it", async (t) => {
  await using r = await rollout(specOf([PROD], { ledger: "git" }));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  const onRemote = async () =>
    (await r.repo.gitIn(remote, "ls-tree", "-r", "--name-only", "chant/ledger"))
      .split("\n");
  let run: string[] = [];
  let waiting = "";

  await t.step("jobs prints the command the pipeline runs", async () => {
    const jobs = await r.run(["jobs", ...SPEC]);
    expect(jobs.code).toBe(0);
    const row = jobs.stdout.split("\n").find((l) => l.startsWith("wave-1"))!;
    run = commandOf(row);
    expect(run).toEqual([
      ...["run", ...SPEC, "--wave", "1"],
      "--ledger",
      "git",
    ]);
    const json = JSON.parse((await r.run(["jobs", ...SPEC, "--json"])).stdout);
    expect(json[0].command).toEqual(["chant-wave", ...run]);
    const pipeline = await r.run(["pipeline", "github", ...SPEC, "--out", "."]);
    expect(pipeline.code).toBe(0);
    const workflow = await Deno.readTextFile(
      `${r.path}/.github/workflows/tf.yml`,
    );
    expect(workflow).toContain(
      "chant-wave run --spec waves.json --wave 1 --ledger git",
    );
  });

  await t.step("run as printed waits in the git ledger", async () => {
    const out = await r.run(run);
    expect(out.code).toBe(3);
    waiting = out.stderr;
    expect(approveLine(out.stderr)).toEqual([
      "approve",
      "tf",
      "tf-wave-1",
      "--plan",
      plannedDigest(out.stderr),
      "--ledger",
      "git",
    ]);
    expect((await onRemote()).some((f) => f.includes("-pending-"))).toBe(true);
  });

  await t.step(
    "approve as printed, then status and show without --ledger",
    async () => {
      expect((await r.run(approveLine(waiting))).code).toBe(0);
      expect((await onRemote()).some((f) => f.includes("-approval-"))).toBe(
        true,
      );
      const status = await r.run(["status", ...SPEC]);
      expect(status.stdout).toContain(`  approval: `);
      expect(status.stdout.trimEnd().split("\n").at(-1)).toBe(
        'next: run wave 1 "prod": chant-wave run --spec waves.json --wave 1 --ledger git',
      );
      const applied = await r.run(
        commandOf(status.stdout.trimEnd().split("\n").at(-1)!),
      );
      expect(applied.code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
      await expect(Deno.stat(`${r.path}/.chant/ledger/gates`)).rejects
        .toThrow();
    },
  );
});

Deno.test("a change cannot point run at a ledger of its own: run reads the spec's ledger at base", async () => {
  await using r = await rollout(specOf([PROD]), {
    headSpec: specOf([PROD], { ledger: "elsewhere" }),
  });
  // An approval of exactly these plans waits in the change's ledger.
  const there = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--ledger",
    "elsewhere",
  ]);
  expect(there.code).toBe(3);
  expect((await r.run([...approveLine(there.stderr), "--by", "ann"])).code)
    .toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    `warning: this change sets "ledger" to "elsewhere"; run reads it at base ${
      r.base.slice(0, 12)
    }, where it is unset, so the ledger is ".chant/ledger" (--ledger or CHANT_WAVE_LEDGER in the pipeline file override it)\n`,
  );
  expect(out.stderr).toMatch(
    /^then approve: chant-wave approve tf tf-wave-1 --plan sha256:[0-9a-f]{64}$/m,
  );
  expect(await r.applied()).toEqual([]);
  // The pipeline file's CHANT_WAVE_LEDGER wins over both.
  const piped = await r.run(["run", ...SPEC, "--wave", "1"], {
    CHANT_WAVE_LEDGER: "elsewhere",
  });
  expect(piped.code).toBe(0);
  expect(piped.stderr).not.toContain("warning: this change sets");
  expect(await r.applied()).toEqual(["eu"]);
});

Deno.test("a clone whose directory ledger is empty says the git ledger is there", async () => {
  await using r = await rollout(specOf([PROD]));
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.gitIn(r.repo.root, "init", "-q", "--bare", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", "main");
  const waiting = await r.run([
    "run",
    ...SPEC,
    "--wave",
    "1",
    "--ledger",
    "git",
  ]);
  expect(waiting.code).toBe(3);
  const clone = `${r.repo.root}/clone`;
  await r.repo.gitIn(r.repo.root, "clone", "-q", "-b", "main", remote, clone);
  const out = await runBinary(["status", ...SPEC], { cwd: clone });
  expect(out.code).toBe(0);
  expect(out.stderr).toBe(
    'note: the ledger .chant/ledger is empty, but this repository has the git ledger origin/chant/ledger: pass --ledger git, or set "ledger": "git" in the spec\n',
  );
});

Deno.test("on a sealed gate the printed approve command signs, and run as printed it counts", async () => {
  await using keys = await tempDir();
  const key = await makeKey(keys.path, "me");
  await using r = await rollout(specOf([PROD], { approval: "sealed" }), {
    files: {
      ".chant-wave/allowed_signers": signersFile({ [TEST_USER.email]: key }),
    },
  });
  await r.repo.git("config", "gpg.format", "ssh");
  await r.repo.git("config", "user.signingkey", key.path);
  const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(waiting.code).toBe(3);
  const approve = approveLine(waiting.stderr);
  expect(approve.at(-1)).toBe("--sign");
  const approved = await r.run(approve);
  expect(approved.code).toBe(0);
  expect(approved.stderr).toContain(
    `signed as ${TEST_USER.email} with SHA256:`,
  );
  expect(approved.stderr).not.toContain("warning:");
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(await r.applied()).toEqual(["eu"]);
});

Deno.test("a held wave's approve command names the job's ledger, and works as printed", async () => {
  const infra = JSON.stringify({
    name: "infra",
    plan: ["sh", TOOL, "plan", "{target}", "{plan}"],
    apply: ["sh", TOOL, "apply", "{target}", "{plan}"],
    heartbeat: "0",
    waves: [{ name: "net", runs: ["net-1"] }],
  });
  const hold = {
    name: "infra-ready",
    after: { name: "infra", gate: "infra-wave-1" },
  };
  await using r = await rollout(
    specOf([{ name: "dev", gate: "never", runs: ["d1"] }], {
      ledger: "shared",
      hooks: { "before-apply": [hold] },
    }),
    { files: { "infra.json": infra } },
  );
  const other = ["run", "--spec", "infra.json", "--wave", "1"];
  expect((await r.run([...other, "--ledger", "shared"])).code).toBe(3);
  const held = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(held.code).toBe(3);
  const approve = held.stderr.match(/nothing in it applied\. Approve: (.+)$/m)
    ?.[1];
  expect(approve).toMatch(
    /^chant-wave approve infra infra-wave-1 --plan sha256:[0-9a-f]{64} --ledger shared$/,
  );
  expect((await r.run([...commandOf(approve!), "--by", "ann"])).code).toBe(0);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(out.code).toBe(0);
  expect(await r.applied()).toEqual(["d1"]);
});

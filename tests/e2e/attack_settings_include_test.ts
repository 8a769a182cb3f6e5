// End to end through the binary: a fresh-eyed attack (round 55) found that a
// clone whose `.git/config` includes a file of the work tree
// (`include.path = ../.gitconfig`, a common way to share settings) lets the
// change's files alone choose the git ledger's remote: a committed
// `.gitconfig` with a `url.*.insteadOf` sent every read and write to a copy of
// the ledger the change brought along, so a spent sealed approval applied
// again. The settings were the same all job long, so the check that they did
// not change could not see it. The same include could name a program git runs
// (`core.fsmonitor`, which `ls-files` starts). Settings that come from a file
// of the checkout are now refused when chant-wave finds the work tree, in
// every mode: exit 2, nothing read, run, recorded or applied; an include of a
// file outside the checkout is the runner's own and stands.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  addOrigin,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const REFUSED =
  /^error: the repository's git settings come from "\.gitconfig", a file of the checkout \(its \.git\/config includes it\), so the change's files would set what chant-wave's git does \(the ledger's remote, a program git runs\); include no file of the work tree in the repository's settings$/;

Deno.test("git settings that come from a file of the checkout are refused before git reads anything", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "never", runs: ["eu"] }], { ledger: "git" }),
  );
  const remote = await addOrigin(r);
  const fake = `${r.repo.root}/fake.git`;
  await r.repo.git("clone", "-q", "--bare", remote, fake);
  await r.repo.commit("vendored settings", {
    ".gitconfig": `[url "${fake}"]\n\tinsteadOf = ${remote}\n`,
  });
  const ledgerTip = () =>
    r.repo.git("--git-dir", remote, "for-each-ref", "refs/heads/chant/ledger");

  await t.step(
    "an include of a repository file: run and approve stop (exit 2), nothing applied or recorded",
    async () => {
      await r.repo.git("config", "include.path", "../.gitconfig");
      const run = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(errorLines(run.stderr)).toHaveLength(1);
      expect(errorLines(run.stderr)[0]).toMatch(REFUSED);
      expect(run.code).toBe(2);
      expect(await r.applied()).toEqual([]);
      const approve = await r.run([
        "approve",
        "tf",
        "tf-wave-1",
        "--plan",
        `sha256:${"0".repeat(64)}`,
        "--by",
        "mallory",
        "--ledger",
        "git",
      ]);
      expect(errorLines(approve.stderr)[0]).toMatch(REFUSED);
      expect(approve.code).toBe(2);
      expect(await ledgerTip()).toBe("");
      expect(
        await r.repo.git("--git-dir", fake, "for-each-ref", "refs/heads/"),
      ).not.toContain("chant/ledger");
    },
  );

  await t.step(
    "the same settings from a file outside the checkout: the runner's own, it stands",
    async () => {
      await r.repo.git("config", "--unset", "include.path");
      const shared = `${r.repo.root}/shared.gitconfig`;
      await Deno.writeTextFile(shared, "[core]\n\tautocrlf = false\n");
      await r.repo.git("config", "include.path", shared);
      const run = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(errorLines(run.stderr)).toEqual([]);
      expect(run.code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
      expect(await ledgerTip()).toContain("refs/heads/chant/ledger");
    },
  );
});

Deno.test("a directory-ledger job whose settings include a repository file naming a program git would run stops first", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "never", runs: ["eu"] }]),
  );
  const marker = `${r.repo.root}/ran`;
  await r.repo.commit("a monitor", {
    "monitor.sh": `#!/bin/sh\necho ran >> ${marker}\n`,
    ".gitconfig": `[core]\n\tfsmonitor = ${r.path}/monitor.sh\n`,
  });
  await Deno.chmod(`${r.path}/monitor.sh`, 0o755);
  await r.repo.git("config", "include.path", "../.gitconfig");
  const run = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(errorLines(run.stderr)).toHaveLength(1);
  expect(errorLines(run.stderr)[0]).toMatch(REFUSED);
  expect(run.code).toBe(2);
  expect(await r.applied()).toEqual([]);
  expect(await Deno.readTextFile(marker).catch(() => "")).toBe("");
});

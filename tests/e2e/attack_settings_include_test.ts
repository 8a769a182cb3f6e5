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
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";
import { runBinary } from "../_helpers/binary.ts";

const REFUSED =
  /^error: the repository's git settings come from "\.gitconfig", a file of the checkout \(its \.git\/config includes it\), so the change's files would set what chant-wave's git does \(the ledger's remote, a program git runs\); include no file of a work tree in the repository's settings$/;

/** Has the clone include the work tree's `.gitconfig`: wave 1 is refused (exit 2), nothing applied. */
async function includeAndRefuse(r: Rollout): Promise<void> {
  await r.repo.git("config", "include.path", "../.gitconfig");
  const run = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(errorLines(run.stderr)).toHaveLength(1);
  expect(errorLines(run.stderr)[0]).toMatch(REFUSED);
  expect(run.code).toBe(2);
  expect(await r.applied()).toEqual([]);
}

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
      await includeAndRefuse(r);
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
  await includeAndRefuse(r);
  expect(await Deno.readTextFile(marker).catch(() => "")).toBe("");
});

// Round 56 on that fix: a job in a linked worktree whose shared settings
// include the main work tree's `.gitconfig` (the change's file there too), and
// a `.gitconfig` of the change that is a link to a file outside, got past it;
// and a hook a command of the change named ran on the ledger's own ref update
// before the settings were checked. Every work tree of the repository counts
// now, as git names the file and where it leads; and chant-wave's git runs no
// hook at all.
Deno.test("settings from another work tree of the repository, or through a link of the checkout, are refused; chant-wave's git runs no hook", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "never", runs: ["eu"] }], { ledger: "git" }),
  );
  await addOrigin(r);
  const marker = `${r.repo.root}/hook-ran`;
  const outside = `${r.repo.root}/outside.gitconfig`;
  await Deno.writeTextFile(outside, "[core]\n\tautocrlf = false\n");
  await r.repo.commit("settings and a hook", {
    ".gitconfig": "[core]\n\tautocrlf = false\n",
    "hooks/reference-transaction": `#!/bin/sh\necho ran >> ${marker}\n`,
  });
  await Deno.chmod(`${r.path}/hooks/reference-transaction`, 0o755);
  const tree = `${r.repo.root}/job-tree`;
  await r.repo.git("worktree", "add", "-q", "--detach", tree, "HEAD");
  const runIn = (cwd: string) =>
    runBinary(["run", ...SPEC, "--wave", "1"], { cwd });

  await t.step(
    "a linked worktree's job, the main work tree's file included: exit 2",
    async () => {
      await r.repo.git("config", "include.path", "../.gitconfig");
      const out = await runIn(tree);
      expect(errorLines(out.stderr)[0]).toMatch(
        /^error: the repository's git settings come from "\.\.\/[^"]*\/\.gitconfig", a file of the checkout/,
      );
      expect(out.code).toBe(2);
      await r.repo.git("config", "--unset", "include.path");
    },
  );

  await t.step(
    "the change's .gitconfig a link to a file outside: exit 2",
    async () => {
      await Deno.remove(`${r.path}/.gitconfig`);
      await Deno.symlink(outside, `${r.path}/.gitconfig`);
      await r.repo.git("config", "include.path", "../.gitconfig");
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(errorLines(out.stderr)[0]).toMatch(REFUSED);
      expect(out.code).toBe(2);
      await r.repo.git("config", "--unset", "include.path");
    },
  );

  await t.step(
    "a hook the repository's settings name: the ledger's writes run it not",
    async () => {
      await r.repo.git("config", "core.hooksPath", `${r.path}/hooks`);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(await r.applied()).toEqual(["eu"]);
      expect(await Deno.readTextFile(marker).catch(() => "")).toBe("");
    },
  );
});

// Round 58: `.git/config` a link (the runner's layout) to a path of the work
// tree that the change made a link to a file of its choosing outside: the
// path git names and the end of the chain both lay outside the work tree, the
// link midway in it. Every link met on the way counts now.
Deno.test("a .git/config that leads through a link of the work tree to a file outside is refused", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "never", runs: ["eu"] }], { ledger: "git" }),
  );
  await addOrigin(r);
  const chosen = `${r.repo.root}/chosen.gitconfig`;
  await Deno.copyFile(`${r.path}/.git/config`, chosen);
  await Deno.symlink(chosen, `${r.path}/cfg`);
  await r.repo.commit("a link", {});
  await Deno.remove(`${r.path}/.git/config`);
  await Deno.symlink("../cfg", `${r.path}/.git/config`);
  const out = await r.run(["run", ...SPEC, "--wave", "1"]);
  expect(errorLines(out.stderr)[0]).toMatch(
    /^error: the repository's git settings come from "cfg", a file of the checkout/,
  );
  expect(out.code).toBe(2);
  expect(await r.applied()).toEqual([]);
});

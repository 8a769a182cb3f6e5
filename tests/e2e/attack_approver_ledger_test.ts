// End to end through the binary: a fresh-eyed attack (round 61) found that an
// approver's `revoke`, `approve`, `show` or `status` with `--spec` and no
// `--ledger` took the ledger from the working copy's spec, the change's: a
// change that dropped `"ledger": "git"` sent the approver's revoke to a
// directory no job reads, and the plan applied under the approval the approver
// had ended; one naming `git:<a fork's remote>` had a sealed approval pushed
// to the contributor's ledger. The working copy's `ledger` now counts only when
// a version of the spec at base names it too; otherwise these commands stop
// (exit 2) and ask for `--ledger`, writing nothing.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  addOrigin,
  approveLine,
  errorLines,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const WAVES = [{ name: "prod", gate: "always", runs: ["eu"] }];

for (
  const [how, head, shown] of [
    ["drops it", specOf(WAVES), "unset"],
    [
      "names a fork's remote",
      specOf(WAVES, { ledger: "git:alice" }),
      '"git:alice"',
    ],
  ] as const
) {
  Deno.test(`a change whose spec ${how}: approve, revoke and show with --spec stop (exit 2) and write nothing`, async () => {
    await using r = await rollout(specOf(WAVES, { ledger: "git" }), {
      headSpec: head,
    });
    const remote = await addOrigin(r);
    const fork = `${r.repo.root}/alice.git`;
    await r.repo.git("clone", "-q", "--bare", remote, fork);
    await r.repo.git("remote", "add", "alice", fork);
    const onBranch = (gitDir: string) =>
      r.repo.git(
        "--git-dir",
        gitDir,
        "for-each-ref",
        "--format=%(refname)",
        "refs/heads/chant/ledger",
      ).then((ref) =>
        ref === "" ? "" : r.repo.git(
          "--git-dir",
          gitDir,
          "ls-tree",
          "-r",
          "--name-only",
          "chant/ledger",
        )
      );
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(waiting.code).toBe(3);
    const printed = approveLine(waiting.stderr);
    const plan = printed[printed.indexOf("--plan") + 1];
    const byWave = ["--spec", "waves.json", "--wave", "1"];
    for (
      const [command, args] of [
        ["approve", ["--plan", plan, "--by", "ann"]],
        ["revoke", ["--by", "ann"]],
        ["show", []],
      ] as const
    ) {
      const out = await r.run([command, ...byWave, ...args]);
      expect(errorLines(out.stderr)).toEqual([
        `error: waves.json: this change sets "ledger" to ${shown}, which no version of the spec at base ${
          r.base.slice(0, 12)
        } names ("git"); pass --ledger to say which ledger ${command} uses`,
      ]);
      expect(out.code).toBe(2);
    }
    expect(await onBranch(remote)).not.toContain("-approval-");
    expect(await onBranch(fork)).toBe("");
    expect(await Deno.stat(`${r.path}/.chant/ledger`).catch(() => undefined))
      .toBeUndefined();
    // Said which ledger, the approval reaches the rollout's.
    const approved = await r.run([
      "approve",
      ...byWave,
      "--plan",
      plan,
      "--by",
      "ann",
      "--ledger",
      "git",
    ]);
    expect(errorLines(approved.stderr)).toEqual([]);
    expect(approved.code).toBe(0);
    expect(await onBranch(remote)).toContain("-approval-");
  });
}

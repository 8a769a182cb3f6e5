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
import type { BinaryResult } from "../_helpers/binary.ts";
import {
  addOrigin,
  approveLine,
  errorLines,
  type Rollout,
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
  Deno.test(`a change whose spec ${how}: approve, revoke and show with --spec stop (exit 2) and write nothing, in one commit or more`, async () => {
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
    const refused = async (said: RegExp) => {
      for (
        const [command, args] of [
          ["approve", ["--plan", plan, "--by", "ann"]],
          ["revoke", ["--by", "ann"]],
          ["show", []],
        ] as const
      ) {
        const out = await r.run([command, ...byWave, ...args]);
        const errors = errorLines(out.stderr);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatch(said);
        expect(errors[0]).toContain(
          `; pass --ledger to say which ledger ${command} uses`,
        );
        expect(out.code).toBe(2);
      }
    };
    await refused(
      new RegExp(
        `^error: waves\\.json: this change sets "ledger" to ${shown}, which the spec at base ${
          r.base.slice(0, 12)
        } does not \\("git"\\)`,
      ),
    );
    // Round 62: one commit more made the change's own version one the base
    // rule reads on a laptop; every version must name the ledger.
    await r.repo.commit("one commit more");
    await refused(
      /^error: waves\.json: the versions of the spec read at base [0-9a-f]{12} name different ledgers/,
    );
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

/** `approve`, `revoke` and `show` of wave "prod" by `--spec`, one after the other. */
async function approverCommands(r: Rollout): Promise<BinaryResult[]> {
  const outs: BinaryResult[] = [];
  for (
    const [command, args] of [
      ["approve", ["--plan", `sha256:${"0".repeat(64)}`, "--by", "ann"]],
      ["revoke", ["--by", "ann"]],
      ["show", []],
    ] as const
  ) {
    outs.push(
      await r.run([command, "--spec", "waves.json", "--wave", "prod", ...args]),
    );
  }
  return outs;
}

// Round 62: the rollout's name and a wave's gate came from the working copy
// too, so a change that renamed the rollout, or swapped two waves' names, sent
// an approver's revoke to a gate no job reads, or approved another wave.
for (
  const [how, head] of [
    ["renames the rollout", specOf(WAVES, { name: "tf2", ledger: "git" })],
    [
      "swaps two waves' names",
      specOf([
        { name: "staging", gate: "always", runs: ["eu"] },
        { name: "prod", gate: "always", runs: ["us"] },
      ], { ledger: "git" }),
    ],
  ] as const
) {
  Deno.test(`a change that ${how}: approve, revoke and show with --spec stop (exit 2)`, async () => {
    const base = specOf([
      { name: "prod", gate: "always", runs: ["eu"] },
      { name: "staging", gate: "always", runs: ["us"] },
    ], { ledger: "git" });
    await using r = await rollout(base, { headSpec: head });
    await addOrigin(r);
    for (const out of await approverCommands(r)) {
      expect(errorLines(out.stderr)).toHaveLength(1);
      expect(errorLines(out.stderr)[0]).toMatch(
        /^error: waves\.json: this change makes wave "prod" the gate "tf2?-wave-[12]" of "tf2?"; the spec at base [0-9a-f]{12} has "tf-wave-1" of "tf": pass NAME GATE as the waiting job printed them$/,
      );
      expect(out.code).toBe(2);
    }
  });
}

// Round 63: a change whose tip merges a first-parent history of its own
// (an orphan line) with the real one made its versions the only ones an
// approver's command read; with no trusted decision to bound the chain, such a
// history is refused, as a job refuses it.
Deno.test("a change that merges a history of its own first: approve, revoke and show with --spec stop (exit 2)", async () => {
  await using r = await rollout(specOf(WAVES, { ledger: "git" }));
  await addOrigin(r);
  const main = await r.repo.git("rev-parse", "HEAD");
  await r.repo.git("checkout", "-q", "--orphan", "own");
  await r.repo.write(
    "waves.json",
    JSON.stringify(specOf(WAVES, { ledger: ".chant/own" })),
  );
  await r.repo.commit("its own line");
  await r.repo.commit("one more");
  await r.repo.git(
    "merge",
    "-q",
    "--allow-unrelated-histories",
    "-s",
    "ours",
    "-m",
    "merge main",
    main,
  );
  for (const out of await approverCommands(r)) {
    expect(errorLines(out.stderr)).toHaveLength(1);
    expect(errorLines(out.stderr)[0]).toMatch(
      /^error: HEAD's history joins 2 unrelated histories/,
    );
    expect(out.stderr).toContain(
      "pass NAME GATE and --ledger as the waiting job printed them",
    );
    expect(out.code).toBe(2);
  }
  expect(await Deno.stat(`${r.path}/.chant/own`).catch(() => undefined))
    .toBeUndefined();
});

// End to end through the binary: `ledger compact` settles a gate never revoked
// once every approval in it is spent (docs/ledger.md, "Compacting the
// ledger"), on the git ledger: the gate's tip keeps the revoke and a summary,
// the next change waits for a fresh approval and applies under it, and a
// rollout that waits is left alone.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const GATE = "tf-wave-1";
const NOTHING = 'nothing to fold in git ledger chant/ledger of "origin"\n';

Deno.test("ledger compact settles a gate whose every approval was applied, and the next change asks for its own", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu", "us"] }], {
      ledger: "git",
    }),
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", "HEAD:refs/heads/main");
  const tip = async () =>
    (await r.repo.gitIn(
      remote,
      "ls-tree",
      "--name-only",
      `chant/ledger:gates/tf/${GATE}`,
    )).split("\n").filter((name) => name.endsWith(".json"));
  const rollOut = async (by: string) => {
    const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(waiting.code).toBe(3);
    const approved = await r.run([...approveLine(waiting.stderr), "--by", by]);
    expect(approved.code).toBe(0);
    const applied = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(applied.code).toBe(0);
  };

  await t.step("a rollout that waits is not settled", async () => {
    await rollOut("ann");
    await r.desire("eu", "v2");
    await r.repo.commit("eu v2", {});
    expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(3);
    const out = await r.run([
      "ledger",
      "compact",
      "--dry-run",
      "--ledger",
      "git",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      NOTHING,
    );
  });

  await t.step(
    "once every approval applied, compact settles and folds",
    async () => {
      const approved = await r.run([
        ...approveLine((await r.run(["run", ...SPEC, "--wave", "1"])).stderr),
        "--by",
        "bob",
      ]);
      expect(approved.code).toBe(0);
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(0);
      const before = await tip();
      const out = await r.run([
        "ledger",
        "compact",
        "--json",
        "--ledger",
        "git",
      ]);
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        new RegExp(
          `^settled tf ${GATE}: 2 approvals spent, ended by revoke [0-9a-f]{12}\n` +
            `folded \\d+ records and \\d plan sets? of tf ${GATE} into summary [0-9a-f]{12}\n$`,
        ),
      );
      const report = JSON.parse(out.stdout);
      expect(report.gates[0].settled).toMatchObject({
        kind: "expired",
        by: "chant-wave ledger compact",
      });
      // The revoke, the summary, and each commit's wave outcome (the order
      // check of the next wave at that commit reads it).
      const kinds = (await tip()).map((name) =>
        name.replace(/^.*Z-([a-z-]+)-[0-9a-f]+\.json$/, "$1")
      );
      expect(kinds.sort()).toEqual([
        "expired",
        "folded",
        "wave-outcome",
        "wave-outcome",
      ]);
      expect(before.length).toBeGreaterThan(8);
      // ledger log still lists every record.
      const log = await r.run([
        "ledger",
        "log",
        "tf",
        GATE,
        "--json",
        "--ledger",
        "git",
      ]);
      const logged = JSON.stringify(JSON.parse(log.stdout));
      for (const name of before) {
        expect(logged).toContain(name.replace(/^.*-([0-9a-f]+)\.json$/, "$1"));
      }
      expect((await r.run(["ledger", "compact", "--ledger", "git"])).stderr)
        .toBe(
          NOTHING,
        );
    },
  );

  await t.step(
    "planning the applied plans again asks anew, and says why",
    async () => {
      const again = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(
        /^ {2}gate "tf-wave-1" has no approval for sha256:[0-9a-f]{64}\n {2}ledger compact settled the gate at \S+: every approval before it was spent \(its plans applied\)$/m,
      );
    },
  );

  await t.step(
    "the next change waits for its own approval and applies under it",
    async () => {
      await r.clearApplied();
      await r.desire("us", "v2");
      await r.repo.commit("us v2", {});
      const waiting = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      expect(waiting.stderr).toContain("waiting");
      expect(
        (await r.run([...approveLine(waiting.stderr), "--by", "carol"])).code,
      ).toBe(0);
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain("approved by carol");
      expect((await r.applied()).sort()).toEqual(["eu", "us"]);
    },
  );
});

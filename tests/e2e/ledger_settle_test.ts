// End to end through the binary, on the git ledger: a gate never revoked is
// settled once every approval in it was spent (docs/ledger.md, "Compacting the
// ledger"), by the deciding job of the next rollout or by `ledger compact`;
// the tip keeps the revoke, a summary and each commit's wave outcome; a
// rollout that waits is left alone; planning the applied plans again asks for
// a fresh approval and says why; the next change applies under its own.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const GATE = "tf-wave-1";
const NOTHING = 'nothing to fold in git ledger chant/ledger of "origin"\n';
const RUN = ["run", ...SPEC, "--wave", "1"];
/** `chant-wave ledger <args> --ledger git`. */
const ledgerGit = (...args: string[]) => ["ledger", ...args, "--ledger", "git"];

Deno.test("a gate whose every approval was applied is settled, and the next change asks for its own", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu", "us"] }], {
      ledger: "git",
    }),
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  await r.repo.git("push", "-q", "origin", "HEAD:refs/heads/main");
  /** The kinds of the record files at the tip of the gate, sorted. */
  const tip = async () =>
    (await r.repo.gitIn(
      remote,
      "ls-tree",
      "--name-only",
      `chant/ledger:gates/tf/${GATE}`,
    )).split("\n").filter((name) => name.endsWith(".json"))
      .map((name) => name.replace(/^.*Z-([a-z-]+)-[0-9a-f]+\.json$/, "$1"))
      .sort();
  const approveAndApply = async (waiting: string, by: string) => {
    const approved = await r.run([...approveLine(waiting), "--by", by]);
    expect(approved.code).toBe(0);
    const applied = await r.run(RUN);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain(`approved by ${by}`);
  };

  await t.step(
    "the next rollout's deciding job settles what the first spent",
    async () => {
      const first = await r.run(RUN);
      expect(first.code).toBe(3);
      await approveAndApply(first.stderr, "ann");
      await r.desire("eu", "v2");
      await r.repo.commit("eu v2", {});
      const next = await r.run(RUN);
      expect(next.code).toBe(3);
      expect(next.stderr).toMatch(
        /^note: the approval of an earlier rollout was spent \(its plans applied\), so it no longer counts here$/m,
      );
      // The revoke, the summary, the first commit's wave outcome, and the
      // pending fact of the rollout that waits.
      expect(await tip()).toEqual([
        "expired",
        "folded",
        "pending",
        "wave-outcome",
      ]);
      // status says settled, not revoked: nobody revoked it.
      const status = await r.run(["status", ...SPEC]);
      expect(status.stdout).toMatch(
        /^ {2}settled: \S+ \(every approval before it was spent: its plans applied\)$/m,
      );
      expect(status.stdout).not.toContain("revoked:");
      // That rollout waits: compacting now leaves it alone.
      const out = await r.run(ledgerGit("compact", "--dry-run"));
      expect(out).toMatchObject({ code: 0, stderr: NOTHING });
      await approveAndApply(next.stderr, "bob");
    },
  );

  await t.step(
    "ledger compact settles too, and ledger log keeps every record",
    async () => {
      const before = await r.run(ledgerGit("log", "tf", GATE, "--json"));
      const out = await r.run(ledgerGit("compact", "--json"));
      expect(out.code).toBe(0);
      expect(out.stderr).toMatch(
        new RegExp(
          `^settled tf ${GATE}: 1 approval spent, ended by revoke [0-9a-f]{12}\n` +
            `folded \\d+ records and \\d plan sets? of tf ${GATE} into summary [0-9a-f]{12}\n$`,
        ),
      );
      expect(JSON.parse(out.stdout).gates[0].settled).toMatchObject({
        kind: "expired",
        by: "chant-wave",
      });
      // Each commit's wave outcome stays (the next wave's order check there).
      expect(await tip()).toEqual([
        "expired",
        "folded",
        "wave-outcome",
        "wave-outcome",
      ]);
      const shown = await r.run(ledgerGit("log", "tf", GATE));
      expect(shown.stdout).toMatch(
        /^ {2}\S+ expired +[0-9a-f]{12} settled: every approval before it was spent \(its plans applied\)( \(folded\))?$/m,
      );
      expect(shown.stdout).toMatch(
        /^ {2}\S+ wave-outcome [0-9a-f]{12} whole-wave job of wave 1: applied at [0-9a-f]{12}, decision \S+( \(folded\))?$/m,
      );
      const after = await r.run(ledgerGit("log", "tf", GATE, "--json"));
      const logged = JSON.stringify(JSON.parse(after.stdout));
      for (const record of JSON.parse(before.stdout).gates[0].records) {
        expect(logged).toContain(record.id);
      }
      const again = await r.run(ledgerGit("compact"));
      expect(again.stderr).toBe(NOTHING);
    },
  );

  await t.step(
    "planning the applied plans again asks anew, and says why",
    async () => {
      const again = await r.run(RUN);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(
        /^ {2}gate "tf-wave-1" has no approval for sha256:[0-9a-f]{64}\n {2}the gate was settled at \S+: every approval before it was spent \(its plans applied\)$/m,
      );
    },
  );

  await t.step(
    "the next change waits for its own approval and applies under it",
    async () => {
      await r.clearApplied();
      await r.desire("us", "v2");
      await r.repo.commit("us v2", {});
      const waiting = await r.run(RUN);
      expect(waiting.code).toBe(3);
      expect(waiting.stderr).not.toContain("settled tf-wave-1");
      await approveAndApply(waiting.stderr, "carol");
      expect((await r.applied()).sort()).toEqual(["eu", "us"]);
    },
  );
});

Deno.test("ledger log says which ledger it read, and --spec reads the spec's", async () => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["eu"] }], { ledger: "git" }),
  );
  const remote = `${r.repo.root}/remote.git`;
  await r.repo.git("init", "--bare", "-q", remote);
  await r.repo.git("remote", "add", "origin", remote);
  expect((await r.run(RUN)).code).toBe(3);
  const dir = await Deno.realPath(r.path);
  const plain = await r.run(["ledger", "log", "tf", GATE]);
  expect(plain.code).toBe(0);
  expect(plain.stderr).toBe(
    `note: the ledger .chant/ledger is empty, but this repository has the git ledger origin/chant/ledger: pass --ledger git, or set "ledger": "git" in the spec\n` +
      `reading the directory ledger ${dir}/.chant/ledger (the default; --spec F reads the ledger the spec names, as "run" does)\n` +
      `no records of tf ${GATE} in directory ledger ${dir}/.chant/ledger\n`,
  );
  const named = await r.run(["ledger", "log", "tf", GATE, ...SPEC]);
  expect(named.code).toBe(0);
  expect(named.stderr).toBe(
    `reading the git ledger chant/ledger of "origin" (the "ledger" of waves.json)\n`,
  );
  expect(named.stdout).toMatch(/^ {2}\S+ pending +[0-9a-f]{12} /m);
});

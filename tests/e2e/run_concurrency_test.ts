// End to end through the binary: many processes approving and deciding against
// one directory ledger at once lose no record (SPEC.md §5.2), and jobs racing
// for one approval spend it once (§10).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { runBinary } from "../_helpers/binary.ts";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const hex = (i: number) => `sha256:${i.toString(16).padStart(64, "0")}`;

async function leftovers(dir: string): Promise<string[]> {
  const odd: string[] = [];
  for await (const gate of Deno.readDir(dir)) {
    for await (const file of Deno.readDir(`${dir}/${gate.name}`)) {
      if (!file.name.endsWith(".json") || file.name.startsWith(".")) {
        odd.push(`${gate.name}/${file.name}`);
      }
    }
  }
  return odd;
}

Deno.test("run and approve: 8 processes against one directory ledger lose no record", async (t) => {
  await using r = await rollout(specOf(
    [1, 2, 3, 4].map((k) => ({
      name: `w${k}`,
      gate: "always",
      runs: [`t${k}`],
    })),
  ));

  const approveAs = (i: number) =>
    r.run([
      "approve",
      "tf",
      "tf-wave-1",
      "--plan",
      hex(i),
      "--by",
      `approver-${i}`,
    ]);

  await t.step(
    "4 deciding jobs and 4 approvers at once on a fresh ledger",
    async () => {
      const outs = await Promise.all([
        ...[1, 2, 3, 4].map((k) =>
          r.run(["run", ...SPEC, "--wave", String(k), "--decide"])
        ),
        ...[1, 2, 3, 4].map((i) => approveAs(i)),
      ]);
      expect(outs.map((out) => out.code)).toEqual([3, 3, 3, 3, 0, 0, 0, 0]);
      const one = await r.records("tf-wave-1");
      expect(one.filter((record) => record.kind === "pending")).toHaveLength(1);
      expect(
        one.filter((record) => record.kind === "approval").map((record) =>
          record.by
        ).sort(),
      ).toEqual(["approver-1", "approver-2", "approver-3", "approver-4"]);
      for (const k of [2, 3, 4]) {
        expect((await r.records(`tf-wave-${k}`)).map((record) => record.kind))
          .toEqual(["pending"]);
      }
    },
  );

  await t.step(
    "8 more at once on one gate: every approval is kept",
    async () => {
      const outs = await Promise.all([
        ...[1, 2].map(() => r.run(["run", ...SPEC, "--wave", "1", "--decide"])),
        ...[5, 6, 7, 8, 9, 10].map((i) => approveAs(i)),
      ]);
      expect(outs.map((out) => out.code)).toEqual([3, 3, 0, 0, 0, 0, 0, 0]);
      const records = await r.records("tf-wave-1");
      // The standing pending fact of the same digest means no new one.
      expect(records.filter((record) => record.kind === "pending"))
        .toHaveLength(
          1,
        );
      expect(records.filter((record) => record.kind === "approval"))
        .toHaveLength(
          10,
        );
      expect(new Set(records.map((record) => record.id)).size).toBe(11);
      expect(await leftovers(`${r.path}/.chant/ledger/gates/tf`)).toEqual([]);
      const log = await r.run(["ledger", "log", "tf", "tf-wave-1"]);
      expect(log.code).toBe(0);
      expect(log.stderr).toBe("");
      expect(log.stdout.trimEnd().split("\n")).toHaveLength(12);
      // The decision record, written by many at once, is whole.
      const decision = await r.readJson(".chant/waves/tf/wave-1.json");
      expect(decision.status).toBe("waiting");
    },
  );
});

// Whole-wave jobs in separate checkouts (a checkout's own jobs take turns under
// the wave lock) sharing one directory ledger race for one approval: the claim
// file lets exactly one of them apply it. A few rounds, every run.
Deno.test("run: whole-wave jobs of 6 checkouts racing for one approval apply it once", async (t) => {
  for (let round = 1; round <= 3; round++) {
    await t.step(`round ${round}`, async () => {
      await using r = await rollout(
        specOf([{ name: "prod", gate: "always", runs: ["a"] }]),
      );
      const ledger = `${r.repo.root}/ledger`;
      const checkouts: string[] = [];
      for (let c = 0; c < 6; c++) {
        const path = `${r.repo.root}/c${c}`;
        await r.repo.gitIn(r.repo.root, "clone", "-q", r.path, path);
        checkouts.push(path);
      }
      const run = (cwd: string) =>
        runBinary(["run", ...SPEC, "--wave", "1", "--ledger", ledger], {
          cwd,
        });
      const waiting = await run(checkouts[0]);
      expect(waiting.code).toBe(3);
      const digest = waiting.stderr.match(/--plan (sha256:[0-9a-f]{64})/)![1];
      const approved = await runBinary(
        ["approve", "tf", "tf-wave-1", "--plan", digest, "--by", "ann"],
        { cwd: checkouts[0], env: { CHANT_WAVE_LEDGER: ledger } },
      );
      expect(approved.code).toBe(0);
      const outs = await Promise.all(checkouts.map(run));
      expect(outs.map((out) => out.code).sort()).toEqual([0, 3, 3, 3, 3, 3]);
      const applies = await Promise.all(
        checkouts.map((cwd) =>
          Deno.readTextFile(`${cwd}/applied.log`).catch(() => "")
        ),
      );
      expect(applies.join("").split("\n").filter(Boolean)).toEqual(["a"]);
    });
  }
});

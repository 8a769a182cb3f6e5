// End to end through the binary: many processes approving and deciding against
// one directory ledger at once lose no record (SPEC.md §5.2), and jobs racing
// for one approval spend it once (§10).
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const hex = (i: number) => `sha256:${i.toString(16).padStart(64, "0")}`;

async function leftovers(dir: string): Promise<string[]> {
  const odd: string[] = [];
  for await (const gate of Deno.readDir(dir)) {
    for await (const file of Deno.readDir(`${dir}/${gate.name}`)) {
      if (file.isDirectory && ["claims", "sets"].includes(file.name)) continue;
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
      // approve refuses a gate the ledger does not know: wave 1 waits first.
      expect((await r.run(["run", ...SPEC, "--wave", "1", "--decide"])).code)
        .toBe(3);
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
      // Nothing but the ledger it read: no record reported malformed.
      expect(log.stderr).toMatch(
        /^reading the directory ledger \S+ \(the default; [^\n]*\)\n$/,
      );
      expect(log.stdout.trimEnd().split("\n")).toHaveLength(12);
      // The decision record, written by many at once, is whole.
      const decision = await r.readJson(".chant/waves/tf/wave-1.json");
      expect(decision.status).toBe("waiting");
    },
  );
});

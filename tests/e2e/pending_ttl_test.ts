// End to end: `pendingTtl` is how long a waiting wave's pending fact stands.
// While it stands, re-runs of the same plans add none and `approve` without
// --plan approves it; once it has run out, `approve` without --plan finds
// nothing and the next waiting run records a fresh one.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { plannedDigest, rollout, SPEC, specOf } from "../_helpers/rollout.ts";

const GATED = { name: "prod", gate: "always", runs: ["eu"] };
const GATE_DIR = ".chant/ledger/gates/tf/tf-wave-1";

Deno.test("pendingTtl bounds how long a waiting wave's pending fact stands", async (t) => {
  await using r = await rollout(specOf([GATED], { pendingTtl: "2h" }));
  let digest = "";
  await t.step(
    "a waiting run writes a pending fact that stands 2h",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1"]);
      expect(out.code).toBe(3);
      digest = plannedDigest(out.stderr);
      const [pending] = await r.records("tf-wave-1");
      expect(pending.kind).toBe("pending");
      expect(
        Date.parse(String(pending.expiresAt)) -
          Date.parse(String(pending.timestamp)),
      ).toBe(2 * 3_600_000);
    },
  );
  await t.step("a re-run of the same plans adds none", async () => {
    expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(3);
    expect((await r.records("tf-wave-1")).map((x) => x.kind)).toEqual([
      "pending",
    ]);
  });
  await t.step(
    "once it ran out, approve without --plan finds none",
    async () => {
      // Age the record as two hours would: its expiry is now in the past.
      const dir = `${r.path}/${GATE_DIR}`;
      const [name] = [...Deno.readDirSync(dir)]
        .filter((entry) => entry.isFile).map((entry) => entry.name);
      const record = JSON.parse(await Deno.readTextFile(`${dir}/${name}`));
      const past = new Date(Date.now() - 60_000).toISOString();
      await Deno.writeTextFile(
        `${dir}/${name}`,
        JSON.stringify({ ...record, timestamp: past, expiresAt: past }),
      );
      const out = await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"]);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain("has no pending plan to approve");
    },
  );
  await t.step(
    "the next waiting run records a fresh one, which approve takes",
    async () => {
      expect((await r.run(["run", ...SPEC, "--wave", "1"])).code).toBe(3);
      expect((await r.records("tf-wave-1")).map((x) => x.kind)).toEqual([
        "pending",
        "pending",
      ]);
      const out = await r.run(["approve", "tf", "tf-wave-1", "--by", "ann"]);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(`for ${digest} by ann\n`);
    },
  );
});

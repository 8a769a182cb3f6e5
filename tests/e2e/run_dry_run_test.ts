// End to end through the binary: `run --dry-run` plans and decides but writes
// nothing at all (SPEC.md §4.9), proven by listing the whole tree before and after.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  approveLine,
  listTree,
  plannedDigest,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const WAVES = [
  { name: "dev", gate: "never", runs: ["dev"] },
  { name: "prod", gate: "always", runs: ["eu", "us", "ap"], shares: 2 },
];

Deno.test("run --dry-run writes nothing: exit 3 when a real run would wait, 0 when it would go on", async (t) => {
  await using r = await rollout(specOf(WAVES));
  const dry = async (args: string[], code: number) => {
    const before = await listTree(r.path);
    const out = await r.run(["run", ...SPEC, ...args, "--dry-run"]);
    expect(out.code).toBe(code);
    expect(out.stderr).toMatch(/^chant-wave: wave \d .*\(dry run\)$/m);
    expect(await listTree(r.path)).toEqual(before);
    return out;
  };

  await t.step("on a fresh checkout: no .chant/ appears", async () => {
    await dry(["--wave", "1"], 0);
    await dry(["--wave", "2", "--decide"], 3);
    const out = await dry(["--wave", "2"], 3);
    expect(out.stderr).toMatch(
      /^then approve: chant-wave approve tf tf-wave-2 --plan sha256:[0-9a-f]{64}$/m,
    );
    await expect(Deno.stat(`${r.path}/.chant`)).rejects.toBeInstanceOf(
      Deno.errors.NotFound,
    );
    expect(await r.applied()).toEqual([]);
  });

  await t.step("a waiting dry run records no pending fact", async () => {
    const out = await r.run(["approve", "tf", "tf-wave-2", "--by", "ann"]);
    expect(out.code).toBe(2);
  });

  let digest = "";
  await t.step(
    "with a ledger and a decision: nothing changes either",
    async () => {
      const waiting = await r.run(["run", ...SPEC, "--wave", "2", "--decide"]);
      expect(waiting.code).toBe(3);
      digest = plannedDigest(waiting.stderr);
      await dry(["--wave", "2", "--decide"], 3);
      await dry(["--wave", "2"], 3);
      await dry(["--wave", "2", "--share", "1"], 3);
    },
  );

  let approvalId = "";
  await t.step(
    "approved: a whole-wave dry run is exit 0 and names the approval it would use",
    async () => {
      const waiting = await r.run(["run", ...SPEC, "--wave", "2", "--dry-run"]);
      expect(
        (await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code,
      )
        .toBe(0);
      approvalId = (await r.records("tf-wave-2")).find((record) =>
        record.kind === "approval"
      )?.id as string;
      const out = await dry(["--wave", "2"], 0);
      expect(out.stderr).toContain(
        `dry run: would apply 3 runs under the approval ${approvalId} by ann; recorded nothing\n`,
      );
    },
  );

  await t.step(
    "approved: a deciding dry run is exit 0 and names the approval it would use",
    async () => {
      const out = await dry(["--wave", "2", "--decide"], 0);
      expect(out.stderr).toContain(approvalId);
    },
  );

  await t.step(
    "the dry runs spent nothing: a real run applies under the approval",
    async () => {
      expect(await r.applied()).toEqual([]);
      const real = await r.run(["run", ...SPEC, "--wave", "2"]);
      expect(real.code).toBe(0);
      expect(plannedDigest(real.stderr)).toBe(digest);
      expect((await r.applied()).sort()).toEqual(["ap", "eu", "us"]);
    },
  );

  await t.step(
    "applied: a dry run says a real run would skip every run, exit 0",
    async () => {
      const out = await dry(["--wave", "2"], 0);
      expect(out.stderr).toContain("would skip: eu: already applied\n");
      expect(out.stderr).toMatch(
        /^dry run: would apply 0 runs under the approval [0-9a-f]{32} by ann; recorded nothing$/m,
      );
    },
  );

  await t.step(
    "share jobs of a decided wave: exit 0, or 4 for a moved plan",
    async () => {
      await r.clearApplied();
      const one = await dry(["--wave", "2", "--share", "1"], 0);
      expect(one.stderr).toContain("slice: ap, eu\n");
      await r.desire("eu", "moved");
      const moved = await dry(["--wave", "2", "--share", "1", "--json"], 4);
      expect(JSON.parse(moved.stdout)).toMatchObject({
        exitCode: 4,
        applied: [],
        moved: ["eu"],
      });
      expect(moved.stderr).toContain(
        "eu: its plan moved since wave 2 was decided",
      );
      expect(await r.applied()).toEqual([]);
      // It says which approval it would use (§4.9), as the whole-wave dry run does.
      expect(one.stderr).toContain(approvalId);
    },
  );
});

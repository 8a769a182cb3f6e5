// End to end through the binary, with real sqitch and a real PostgreSQL server
// started by the test (SPEC.md §17, issue 35's fourth class): a tenant whose
// database was reverted by hand after its approved plan applied plans that same
// digest again. That is not "already applied": the deciding job waits (exit 3)
// saying the target moved back since it applied, a share job holding the old
// decision refuses it (exit 4), nothing is deployed until a new approval, and
// the new approval deploys it once.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine } from "../_helpers/rollout.ts";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import { exampleFiles, SPEC_FLAGS, tenantRepo } from "../_helpers/tenants.ts";

/** A one-wave spec over the example's project: `runs`, always gated. */
function spec(runs: string[], wave: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name: "tenants",
    tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
    heartbeat: 0,
    waves: [{ name: "prod", runs, gate: "always", ...wave }],
  });
}

const CHANGES = ["accounts", "invoices"];

/** `<target>: moved back since it applied this plan (sha256:…) under the approval by ann at <time>; …`. */
function movedBack(target: string): RegExp {
  return new RegExp(
    `${target}: moved back since it applied this plan \\(sha256:[0-9a-f]{64}\\) ` +
      `under the approval by ann at \\S+; applying it again needs a new approval`,
  );
}

Deno.test("run with sqitch: a tenant reverted by hand after it applied waits for a new approval", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  await pg.createDatabases(["tenant_a", "tenant_b", "tenant_c"]);

  await t.step(
    "a whole-wave job: exit 3 naming the target, then a new approval deploys it again",
    async () => {
      await using r = await tenantRepo(pg, {
        ...await exampleFiles(),
        "waves.jsonc": spec(["a"]),
      });
      await r.repo.commit("head: the rollout");
      const waiting = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      const approve = approveLine(waiting.stderr);
      expect((await r.run([...approve, "--by", "ann"])).code).toBe(0);
      const applied = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(applied.code).toBe(0);
      expect(await r.deployed("a")).toEqual(CHANGES);

      await r.sqitch(["revert", "-y", "--target=db:pg:tenant_a"]);
      expect(await r.deployed("a")).toEqual([]);

      const again = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(movedBack("a"));
      expect(again.stderr).not.toContain("already applied");
      expect(await r.deployed("a")).toEqual([]);
      expect(approveLine(again.stderr)).toEqual(approve);

      const renewed = await r.run([...approve, "--by", "ann"]);
      expect(renewed.code).toBe(0);
      expect(renewed.stderr).toContain(
        "this new approval lets them apply again",
      );
      expect(renewed.stderr).toContain("recorded in");
      expect(renewed.stderr).not.toContain("already at");
      const reapplied = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(reapplied.code).toBe(0);
      expect(await r.deployed("a")).toEqual(CHANGES);
    },
  );

  await t.step(
    "a share job holding the old decision refuses it: exit 4, nothing deployed",
    async () => {
      await using r = await tenantRepo(pg, {
        ...await exampleFiles(),
        "waves.jsonc": spec(["b", "c"], { shares: 2 }),
      });
      await r.repo.commit("head: the rollout");
      const decide = ["run", ...SPEC_FLAGS, "--wave", "1", "--decide"];
      const waiting = await r.run(decide);
      expect(waiting.code).toBe(3);
      expect(
        (await r.run([...approveLine(waiting.stderr), "--by", "ann"])).code,
      ).toBe(0);
      expect((await r.run(decide)).code).toBe(0);
      const share = (i: number) =>
        r.run(["run", ...SPEC_FLAGS, "--wave", "1", "--share", String(i)]);
      expect((await share(1)).code).toBe(0);
      expect((await share(2)).code).toBe(0);
      expect(await r.deployed("b")).toEqual(CHANGES);

      await r.sqitch(["revert", "-y", "--target=db:pg:tenant_b"]);
      const rerun = await share(1);
      expect(rerun.code).toBe(4);
      expect(rerun.stderr).toMatch(movedBack("b"));
      expect(rerun.stderr).not.toContain("already applied");
      expect(await r.deployed("b")).toEqual([]);
      expect(await r.deployed("c")).toEqual(CHANGES);
    },
  );
});

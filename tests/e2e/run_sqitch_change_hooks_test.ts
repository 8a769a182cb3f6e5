// A sqitch rollout runs no command of the change (the fourth attack round on
// the migration gate): a hook the change adds to the spec would run with the
// job's database credentials before the gate, so a wave's hook commands are
// read at base, through the binary with real sqitch and a real PostgreSQL
// server. The change's hook is left out, said so, and the tenant's rows stay.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  attackChange,
  oneWaveSpec,
  SEEDED,
  seededRepo,
  SPEC_FLAGS,
  tenantTables,
} from "../_helpers/tenants.ts";

/** A hook that leaves a trace, then deletes the tenant's rows. */
function deleting(tenant: string, trace: string): string[] {
  return [
    "sh",
    "-c",
    `echo ran >> '${trace}'; psql -X -q -d tenant_${tenant} -c 'DELETE FROM invoices; DELETE FROM accounts'`,
  ];
}

Deno.test("run with sqitch: a hook command the change adds runs only once it is at base", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();

  for (const job of ["whole-wave", "deciding and share"] as const) {
    await t.step(`a ${job} job leaves it out and says so`, async () => {
      const tenant = job === "whole-wave" ? "h1" : "h2";
      const trace = `${await Deno.makeTempDir()}/trace`;
      await using r = await seededRepo(pg, tenant, "on-destructive", {
        changes: [attackChange("notes", "CREATE TABLE notes (id int);\n")],
        files: {
          "waves.jsonc": oneWaveSpec(tenant, {
            gate: "on-destructive",
            hooks: {
              "before-plan": [{ name: "init", run: deleting(tenant, trace) }],
            },
          }),
        },
      });
      const wave = ["run", ...SPEC_FLAGS, "--wave", "1"];
      const runs = job === "whole-wave"
        ? [wave]
        : [[...wave, "--decide"], [...wave, "--share", "1"]];
      for (const args of runs) {
        const out = await r.run(args);
        expect(out.code).toBe(0);
        // The job that decides says so; a share job runs the decision's hooks.
        if (!args.includes("--share")) {
          expect(out.stderr).toContain(
            'hook before-plan "init": not in the spec at base; a sqitch rollout runs only the hook commands its base holds, so it runs once the change is merged\n',
          );
        }
        expect(out.stderr).not.toContain("[hook] init");
      }
      await expect(Deno.stat(trace)).rejects.toThrow(Deno.errors.NotFound);
      expect(await r.deployed(tenant)).toEqual([
        "accounts",
        "invoices",
        "notes",
      ]);
      expect(await tenantTables(pg, tenant)).toEqual(SEEDED);
    });
  }
});

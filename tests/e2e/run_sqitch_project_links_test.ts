// A sqitch project stays inside the checkout (the fourth attack round on the
// migration gate): a deploy script committed as a link to a file outside the
// checkout is judged as it reads at plan time and read again by psql at
// deploy, so whoever can write that file chooses what runs. The plan fails,
// naming the link, through the binary with real sqitch and PostgreSQL.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  attackChange,
  SEEDED,
  seededRepo,
  SPEC_FLAGS,
  tenantTables,
} from "../_helpers/tenants.ts";

Deno.test("run with sqitch: a deploy script that links out of the project fails the plan", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "l1", "on-destructive", {
    changes: [attackChange("evil", "SELECT 1;\n")],
  });
  const outside = await Deno.makeTempFile({ suffix: ".sql" });
  await Deno.writeTextFile(outside, "SELECT 1;\n");
  await Deno.remove(`${r.path}/db/deploy/evil.sql`);
  await Deno.symlink(outside, `${r.path}/db/deploy/evil.sql`);
  await r.repo.commit("the script, as a link");
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain(
    `failed: plan of "l1": the project holds deploy/evil.sql, a link leading out of it (to ${outside})`,
  );
  expect(await r.deployed("l1")).toEqual(["accounts", "invoices"]);
  expect(await tenantTables(pg, "l1")).toEqual(SEEDED);
  await Deno.remove(outside);
});

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

// The 46th attack round: a `..` after a link names one file to a reader that
// undoes it by name (psql) and another to one that follows the link (sqitch).
Deno.test("run with sqitch: a change whose name holds .. fails the plan", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "l2", "on-destructive", {
    changes: [attackChange("a/../evil", "SELECT 1;\n")],
  });
  // psql opens deploy/evil.sql; sqitch, through the link, deploy/x/evil.sql.
  await Deno.writeTextFile(
    `${r.path}/db/deploy/evil.sql`,
    "DELETE FROM invoices; DELETE FROM accounts;\n",
  );
  await Deno.mkdir(`${r.path}/db/deploy/x/y`, { recursive: true });
  await Deno.writeTextFile(`${r.path}/db/deploy/x/y/.keep`, "");
  await Deno.writeTextFile(`${r.path}/db/deploy/x/evil.sql`, "SELECT 1;\n");
  // The writer of the change undid the `..` by name: there is no deploy/a yet.
  await Deno.symlink("x/y", `${r.path}/db/deploy/a`);
  await r.repo.commit("the change's scripts, through a link");
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain(
    `failed: plan of "l2": change "a/../evil": its scripts' paths hold "..", which sqitch follows through links and psql undoes by name: two files`,
  );
  expect(await r.deployed("l2")).toEqual(["accounts", "invoices"]);
  expect(await tenantTables(pg, "l2")).toEqual(SEEDED);
});

Deno.test("run with sqitch: a project directory reached through a link fails the plan", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "l3", "on-destructive", {
    changes: [attackChange("evil", "SELECT 1;\n\\i inc.sql\n")],
    files: { "db/inc.sql": "SELECT 2;\n" },
  });
  // sqitch runs in db/x (where db/s/.. leads); the text db/s/.. names db.
  await new Deno.Command("cp", { args: ["-r", `${r.path}/db`, `${r.path}/x`] })
    .output();
  await Deno.rename(`${r.path}/x`, `${r.path}/db/x`);
  await Deno.writeTextFile(
    `${r.path}/db/x/inc.sql`,
    "DELETE FROM invoices; DELETE FROM accounts;\n",
  );
  await Deno.mkdir(`${r.path}/db/x/y`);
  await Deno.writeTextFile(`${r.path}/db/x/y/.keep`, "");
  await Deno.symlink("x/y", `${r.path}/db/s`);
  const spec = JSON.parse(await Deno.readTextFile(`${r.path}/waves.jsonc`));
  spec.tool.dir = "db/s/..";
  await Deno.writeTextFile(`${r.path}/waves.jsonc`, JSON.stringify(spec));
  await r.repo.commit("the project, through a link");
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain(
    `is reached through a link (it is "db/x"): name it by the path it is at`,
  );
  expect(await r.deployed("l3")).toEqual(["accounts", "invoices"]);
  expect(await tenantTables(pg, "l3")).toEqual(SEEDED);
});

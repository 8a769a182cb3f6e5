// The 44th and 45th fresh-eyed attack rounds on the migration gate, end to
// end through the binary with real sqitch and a real PostgreSQL server, as a
// contributor who can push a change but cannot approve: where chant-wave read
// a script otherwise than psql does. psql ends a statement by its own rule,
// not the server's: in a CREATE FUNCTION, a parameter named `begin` opens a
// block for psql, so it holds the statements that follow and runs a later
// `\ir` first (it called a destructive function an earlier approved change
// left, before the `CREATE SCHEMA` that made the call look like one of the
// deploy's own harmless functions had run). And psql parts a meta-command's
// words at ASCII spaces only: `\ir x.sql` followed by a no-break space opens
// a file of that name, not `x.sql`. After each run the tenant's rows are
// still there.
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

Deno.test("attack round 44: an include psql runs before the statements it holds is judged where psql runs it", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "q1", "on-destructive", {
    changes: [
      attackChange(
        "report",
        "CREATE FUNCTION public.report_id(begin int) RETURNS int LANGUAGE sql RETURN begin;\n" +
          "CREATE SCHEMA app;\n" +
          "CREATE FUNCTION app.purge() RETURNS bigint LANGUAGE sql RETURN 0;\n" +
          "\\ir report_check.sql\n" +
          "SELECT 1 AS end;\n",
      ),
    ],
    files: { "db/deploy/report_check.sql": "SELECT app.purge();\n" },
  });
  // What an earlier, approved change left in the database.
  await pg.sql(
    "tenant_q1",
    "CREATE SCHEMA app; CREATE FUNCTION app.purge() RETURNS bigint " +
      "LANGUAGE sql AS 'DELETE FROM invoices; DELETE FROM accounts; SELECT 0::bigint';",
  );
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    'destructive: report (a psql meta-command inside a statement (psql runs it before it sends the statement around it), line 4: "\\\\ir report_check.sql")',
  );
  expect(await r.deployed("q1")).toEqual(["accounts", "invoices"]);
  expect(await tenantTables(pg, "q1")).toEqual(SEEDED);
});

Deno.test("attack round 45: an include is the file psql opens, its words parted at ASCII spaces only", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  for (
    const [tenant, line, file] of [
      ["u1", "\\ir x.sql\u00a0", "x.sql\u00a0"],
      ["u2", "\\ir \u3000x.sql", "\u3000x.sql"],
      ["u3", "\\ir x.sql\ufeff", "x.sql\ufeff"],
    ]
  ) {
    await t.step(JSON.stringify(line), async () => {
      await using r = await seededRepo(pg, tenant, "on-destructive", {
        changes: [attackChange("evil", `${line}\n`)],
        files: {
          "db/deploy/x.sql": "SELECT 1;\n",
          [`db/deploy/${file}`]:
            "DELETE FROM invoices; DELETE FROM accounts;\n",
        },
      });
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        'destructive: evil (psql "\\\\ir" with a character that is not ASCII, line 1:',
      );
      expect(await r.deployed(tenant)).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, tenant)).toEqual(SEEDED);
    });
  }
});

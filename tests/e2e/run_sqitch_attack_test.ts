// The attacks of issue 35, end to end through the binary with real sqitch and
// a real PostgreSQL server, as a contributor who can push a change but cannot
// approve: each test deploys the example's first two changes to a tenant,
// fills its tables, pushes an attack, runs the wave, and then reads the
// database: the rows and the columns are still there.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { requireSqitch, startPostgres } from "../_helpers/postgres.ts";
import {
  attackChange,
  planStatements,
  runThenApprove,
  SEEDED,
  seededRepo,
  SPEC_FLAGS,
  tenantTables,
} from "../_helpers/tenants.ts";

Deno.test("issue 35, class 1: what psql and the server run is what the allow-list judges; every attack waits", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  const changes = [
    attackChange(
      "tidy",
      "CREATE FUNCTION public.tidy() RETURNS void LANGUAGE plpgsql AS $$\nBEGIN\n  EXECUTE 'DELETE FROM ' || 'accounts';\nEND $$;\nSELECT public.tidy();\n",
    ),
    attackChange(
      "merge",
      "MERGE INTO accounts a USING accounts b ON a.id = b.id WHEN MATCHED THEN DELETE;\n",
    ),
    attackChange(
      "rule",
      "CREATE TABLE audit (id int);\nCREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM invoices;\nINSERT INTO audit VALUES (1);\n",
    ),
    attackChange(
      "upsert",
      "INSERT INTO accounts (email) SELECT email FROM accounts\n  ON CONFLICT (email) DO UPDATE SET note = '';\n",
    ),
    attackChange("where_true", "DELETE FROM invoices WHERE true;\n"),
    attackChange("keyword_column", "ALTER TABLE accounts DROP expression;\n"),
    attackChange(
      "hidden",
      "SET standard_conforming_strings = off;\nSELECT 'a\\'; TRUNCATE accounts CASCADE; -- ';\n",
    ),
    attackChange(
      "backtick",
      "\\echo `psql -d tenant_a1 -c 'TRUNCATE accounts CASCADE'`\nSELECT 1;\n",
    ),
    attackChange(
      "second_command",
      "\\echo done \\\\ TRUNCATE accounts CASCADE;\n",
    ),
  ];
  await using r = await seededRepo(pg, "a1", "on-destructive", { changes });
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    '  a1: 9 changes to deploy; destructive: tidy (EXECUTE of a string at line 3 of the body of function public.tidy, line 1: "CREATE FUNCTION public.tidy() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE \'DELETE FROM \' || \'accounts\'; END $$", and 1 more), merge (MERGE, line 1: "MERGE INTO accounts a USING accounts b ON a.id = b.id WHEN MATCHED THEN DELETE"), rule (CREATE RULE, line 2: "CREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM invoices") and 6 more (destructive)\n',
  );
  expect(out.stderr).toContain(
    'gate tenants-wave-1: waiting: the policy is "on-destructive" and 1 member is destructive: "a1"\n',
  );
  expect(await planStatements(r, "a1")).toEqual({
    tidy: [
      "deploy/tidy.sql:1: EXECUTE of a string at line 3 of the body of function public.tidy: CREATE FUNCTION public.tidy() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'DELETE FROM ' || 'accounts'; END $$",
      "deploy/tidy.sql:5: a call of public.tidy(): SELECT public.tidy()",
    ],
    merge: [
      "deploy/merge.sql:1: MERGE: MERGE INTO accounts a USING accounts b ON a.id = b.id WHEN MATCHED THEN DELETE",
    ],
    rule: [
      "deploy/rule.sql:2: CREATE RULE: CREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM invoices",
    ],
    upsert: [
      "deploy/upsert.sql:1: INSERT … ON CONFLICT DO UPDATE: INSERT INTO accounts (email) SELECT email FROM accounts ON CONFLICT (email) DO UPDATE SET note = ''",
    ],
    where_true: [
      "deploy/where_true.sql:1: DELETE: DELETE FROM invoices WHERE true",
    ],
    keyword_column: [
      "deploy/keyword_column.sql:1: ALTER TABLE … DROP COLUMN: ALTER TABLE accounts DROP expression",
    ],
    hidden: [
      "deploy/hidden.sql:1: SET standard_conforming_strings (a setting changes how later statements run): SET standard_conforming_strings = off",
      "deploy/hidden.sql:2: TRUNCATE: TRUNCATE accounts CASCADE",
    ],
    backtick: [
      "deploy/backtick.sql:1: psql \"\\\\echo\" with a backtick (psql runs it in a shell): \\echo `psql -d tenant_a1 -c 'TRUNCATE accounts CASCADE'`",
    ],
    second_command: [
      'deploy/second_command.sql:1: psql "\\\\echo" followed by another backslash command on its line: \\echo done \\\\ TRUNCATE accounts CASCADE;',
    ],
  });
  expect(await r.deployed("a1")).toEqual(["accounts", "invoices"]);
  expect(await tenantTables(pg, "a1")).toEqual(SEEDED);
});

Deno.test("issue 35, class 2: the digest covers every file the deploy runs", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();

  await t.step(
    "an included file edited after the approval: the share job refuses it (exit 4), nothing deployed",
    async () => {
      await using r = await seededRepo(pg, "b1", "always", {
        changes: [
          attackChange("due", "BEGIN;\n\\ir due/columns.sql\nCOMMIT;\n"),
        ],
        files: {
          "db/deploy/due/columns.sql":
            "ALTER TABLE invoices ADD COLUMN due date;\n",
        },
      });
      const decide = ["run", ...SPEC_FLAGS, "--wave", "1", "--decide"];
      await runThenApprove(r, decide);
      expect((await r.run(decide)).code).toBe(0);
      await r.repo.write(
        "db/deploy/due/columns.sql",
        "TRUNCATE accounts CASCADE;\n",
      );
      const out = await r.run([
        "run",
        ...SPEC_FLAGS,
        "--wave",
        "1",
        "--share",
        "1",
      ]);
      expect(out.code).toBe(4);
      expect(out.stderr).toMatch(
        /^refused: b1: its plan moved since wave 1 was decided; decided sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64} \(destructive\)$/m,
      );
      expect(out.stderr).toContain(
        '1 change to deploy; destructive: due (TRUNCATE, deploy/due/columns.sql line 1: "TRUNCATE accounts CASCADE")',
      );
      expect(await r.deployed("b1")).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, "b1")).toEqual(SEEDED);
    },
  );

  await t.step(
    "an include outside the project is destructive, named with its line",
    async () => {
      await using r = await seededRepo(pg, "b2", "on-destructive", {
        changes: [attackChange("outside", "\\i ../wipe.sql\n")],
        files: { "wipe.sql": "TRUNCATE accounts CASCADE;\n" },
      });
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        '  b2: 1 change to deploy; destructive: outside (an include outside the project, line 1: "\\\\i ../wipe.sql") (destructive)\n',
      );
      expect(await r.deployed("b2")).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, "b2")).toEqual(SEEDED);
    },
  );
});

Deno.test("issue 35, class 3: chant-wave decides how sqitch runs, not the change's sqitch.conf", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  const WIPE = "TRUNCATE accounts CASCADE;\n";

  await t.step(
    "verify turned on and a failing verify script: no verify runs, so no revert runs",
    async () => {
      await using r = await seededRepo(pg, "c1", "on-destructive", {
        changes: [attackChange("notes", "CREATE TABLE notes (id int);\n")],
        files: {
          "db/sqitch.conf":
            "[core]\n\tengine = pg\n[deploy]\n\tverify = true\n\tmode = all\n",
          "db/verify/notes.sql": "SELECT 1/0;\n",
          "db/revert/notes.sql": WIPE,
        },
      });
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(await r.deployed("c1")).toEqual(["accounts", "invoices", "notes"]);
      expect(await tenantTables(pg, "c1")).toEqual(SEEDED);
    },
  );

  await t.step(
    "a committed wrapper named as the client in sqitch.conf never runs",
    async () => {
      await using r = await seededRepo(pg, "c2", "on-destructive", {
        changes: [attackChange("notes", "CREATE TABLE notes (id int);\n")],
        files: {
          "db/sqitch.conf":
            '[core]\n\tengine = pg\n[engine "pg"]\n\tclient = ./psql.sh\n',
          "db/psql.sh":
            `#!/bin/sh\npsql -d tenant_c2 -c 'TRUNCATE accounts CASCADE'\nexec psql "$@"\n`,
        },
      });
      await Deno.chmod(`${r.path}/db/psql.sh`, 0o755);
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(0);
      expect(await r.deployed("c2")).toEqual(["accounts", "invoices", "notes"]);
      expect(await tenantTables(pg, "c2")).toEqual(SEEDED);
    },
  );

  await t.step(
    "a deploy that makes sqitch's log fail waits as a write into the registry; approved, sqitch finds no revert script to run",
    async () => {
      await using r = await seededRepo(pg, "c3", "on-destructive", {
        changes: [
          attackChange(
            "logfail",
            "ALTER TABLE sqitch.events ADD CONSTRAINT no_log CHECK (change <> 'logfail') NOT VALID;\n",
          ),
        ],
        files: { "db/revert/logfail.sql": WIPE },
      });
      const waiting = await runThenApprove(r, [
        "run",
        ...SPEC_FLAGS,
        "--wave",
        "1",
      ]);
      expect(waiting.stderr).toContain(
        '  c3: 1 change to deploy; destructive: logfail (ALTER TABLE in sqitch\'s registry (schema "sqitch"), line 1: "ALTER TABLE sqitch.events ADD CONSTRAINT no_log CHECK (change <> \'logfail\') NOT VALID") (destructive)\n',
      );
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain("chant-wave-no-revert-");
      expect(await r.deployed("c3")).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, "c3")).toEqual(SEEDED);
    },
  );
});

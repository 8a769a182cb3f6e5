// The attacks of issue 35, end to end through the binary with real sqitch and
// a real PostgreSQL server, as a contributor who can push a change but cannot
// approve: each test deploys the example's first two changes to a tenant,
// fills its tables, pushes an attack, runs the wave, and then reads the
// database: the rows and the columns are still there.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveLine } from "../_helpers/rollout.ts";
import {
  type Postgres,
  requireSqitch,
  startPostgres,
} from "../_helpers/postgres.ts";
import {
  exampleFiles,
  type NewChange,
  SPEC_FLAGS,
  type TenantRepo,
  tenantRepo,
  withChanges,
} from "../_helpers/tenants.ts";

/** A one-wave spec over the example's project: tenant `tenant`. */
function spec(tenant: string, gate: string): string {
  return JSON.stringify({
    name: "tenants",
    tool: { kind: "sqitch", dir: "db", target: "db:pg:tenant_{target}" },
    heartbeat: 0,
    waves: [{ name: "staging", runs: [tenant], gate }],
  });
}

/** What the tenant's tables hold: their columns and row counts. */
const SEEDED = {
  accounts: "id,email,note,expression",
  invoices: "id,account_id,total_cents",
  rows: "2|2",
};

/**
 * A repository whose base holds the example under `gate`, its first two
 * changes deployed to `tenant` and two accounts with an invoice each (and a
 * column named by an unreserved keyword); then `attack` pushed on top.
 */
async function seeded(
  pg: Postgres,
  tenant: string,
  gate: string,
  attack: { changes: NewChange[]; files?: Record<string, string> },
): Promise<TenantRepo> {
  await pg.createDatabases([`tenant_${tenant}`]);
  const files: Record<string, string> = {
    ...await exampleFiles(),
    "waves.jsonc": spec(tenant, gate),
  };
  const r = await tenantRepo(pg, files);
  await r.sqitch(["deploy", `--target=db:pg:tenant_${tenant}`]);
  await pg.sql(
    `tenant_${tenant}`,
    "ALTER TABLE accounts ADD COLUMN expression text DEFAULT 'kept';" +
      "INSERT INTO accounts (email) VALUES ('ann@example.com'), ('bob@example.com');" +
      "INSERT INTO invoices (account_id, total_cents) SELECT id, 100 FROM accounts;",
  );
  await r.repo.commit("head: the attack", {
    ...withChanges(files["db/sqitch.plan"], attack.changes),
    ...attack.files,
  });
  return r;
}

/** The tenant's tables now, as {@linkcode SEEDED} shows them. */
async function tables(pg: Postgres, tenant: string) {
  const db = `tenant_${tenant}`;
  const columns = (table: string) =>
    pg.sql(
      db,
      `SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${table}'`,
    );
  return {
    accounts: await columns("accounts"),
    invoices: await columns("invoices"),
    rows: await pg.sql(
      db,
      "SELECT (SELECT count(*) FROM accounts) || '|' || (SELECT count(*) FROM invoices)",
    ),
  };
}

/** The statements the plan file of `tenant` lists, by change. */
async function statements(
  r: TenantRepo,
  tenant: string,
): Promise<Record<string, string[]>> {
  const dir = `${r.path}/.chant/waves/tenants/wave-1`;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.startsWith(tenant)) continue;
    const plan = JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`));
    return Object.fromEntries(
      plan.changes.map((c: { address: string; statements?: string[] }) => [
        c.address,
        c.statements ?? [],
      ]),
    );
  }
  throw new Error(`no plan file of ${tenant} in ${dir}`);
}

/** A change after the example's, as `sqitch add` would make it. */
function attack(name: string, deploy: string): NewChange {
  return { name, requires: ["invoices"], deploy };
}

Deno.test("issue 35, class 1: what psql and the server run is what the allow-list judges; every attack waits", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  const changes = [
    attack(
      "tidy",
      "CREATE FUNCTION public.tidy() RETURNS void LANGUAGE plpgsql AS $$\nBEGIN\n  EXECUTE 'DELETE FROM ' || 'accounts';\nEND $$;\nSELECT public.tidy();\n",
    ),
    attack(
      "merge",
      "MERGE INTO accounts a USING accounts b ON a.id = b.id WHEN MATCHED THEN DELETE;\n",
    ),
    attack(
      "rule",
      "CREATE TABLE audit (id int);\nCREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM invoices;\nINSERT INTO audit VALUES (1);\n",
    ),
    attack(
      "upsert",
      "INSERT INTO accounts (email) SELECT email FROM accounts\n  ON CONFLICT (email) DO UPDATE SET note = '';\n",
    ),
    attack("where_true", "DELETE FROM invoices WHERE true;\n"),
    attack("keyword_column", "ALTER TABLE accounts DROP expression;\n"),
    attack(
      "hidden",
      "SET standard_conforming_strings = off;\nSELECT 'a\\'; TRUNCATE accounts CASCADE; -- ';\n",
    ),
    attack(
      "backtick",
      "\\echo `psql -d tenant_a1 -c 'TRUNCATE accounts CASCADE'`\nSELECT 1;\n",
    ),
    attack(
      "second_command",
      "\\echo done \\\\ TRUNCATE accounts CASCADE;\n",
    ),
  ];
  await using r = await seeded(pg, "a1", "on-destructive", { changes });
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    '  a1: 9 changes to deploy; destructive: tidy (EXECUTE of a string at line 3 of the body of function public.tidy, line 1: "CREATE FUNCTION public.tidy() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE \'DELETE FROM \' || \'accounts\'; END $$", and 1 more), merge (MERGE, line 1: "MERGE INTO accounts a USING accounts b ON a.id = b.id WHEN MATCHED THEN DELETE"), rule (CREATE RULE, line 2: "CREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM invoices") and 6 more (destructive)\n',
  );
  expect(out.stderr).toContain(
    'gate tenants-wave-1: waiting: the policy is "on-destructive" and 1 member is destructive: "a1"\n',
  );
  expect(await statements(r, "a1")).toEqual({
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
  expect(await tables(pg, "a1")).toEqual(SEEDED);
});

Deno.test("issue 35, class 2: the digest covers every file the deploy runs", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();

  await t.step(
    "an included file edited after the approval: the share job refuses it (exit 4), nothing deployed",
    async () => {
      await using r = await seeded(pg, "b1", "always", {
        changes: [attack("due", "BEGIN;\n\\ir due/columns.sql\nCOMMIT;\n")],
        files: {
          "db/deploy/due/columns.sql":
            "ALTER TABLE invoices ADD COLUMN due date;\n",
        },
      });
      const decide = ["run", ...SPEC_FLAGS, "--wave", "1", "--decide"];
      const waiting = await r.run(decide);
      expect(waiting.code).toBe(3);
      const approve = await r.run([
        ...approveLine(waiting.stderr),
        "--by",
        "ann",
      ]);
      expect(approve.code).toBe(0);
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
      expect(await tables(pg, "b1")).toEqual(SEEDED);
    },
  );

  await t.step(
    "an include outside the project is destructive, named with its line",
    async () => {
      await using r = await seeded(pg, "b2", "on-destructive", {
        changes: [attack("outside", "\\i ../wipe.sql\n")],
        files: { "wipe.sql": "TRUNCATE accounts CASCADE;\n" },
      });
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        '  b2: 1 change to deploy; destructive: outside (an include outside the project, line 1: "\\\\i ../wipe.sql") (destructive)\n',
      );
      expect(await r.deployed("b2")).toEqual(["accounts", "invoices"]);
      expect(await tables(pg, "b2")).toEqual(SEEDED);
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
      await using r = await seeded(pg, "c1", "on-destructive", {
        changes: [attack("notes", "CREATE TABLE notes (id int);\n")],
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
      expect(await tables(pg, "c1")).toEqual(SEEDED);
    },
  );

  await t.step(
    "a committed wrapper named as the client in sqitch.conf never runs",
    async () => {
      await using r = await seeded(pg, "c2", "on-destructive", {
        changes: [attack("notes", "CREATE TABLE notes (id int);\n")],
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
      expect(await tables(pg, "c2")).toEqual(SEEDED);
    },
  );

  await t.step(
    "a deploy that makes sqitch's log fail waits as a write into the registry; approved, sqitch finds no revert script to run",
    async () => {
      await using r = await seeded(pg, "c3", "on-destructive", {
        changes: [
          attack(
            "logfail",
            "ALTER TABLE sqitch.events ADD CONSTRAINT no_log CHECK (change <> 'logfail') NOT VALID;\n",
          ),
        ],
        files: { "db/revert/logfail.sql": WIPE },
      });
      const waiting = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(waiting.code).toBe(3);
      expect(waiting.stderr).toContain(
        '  c3: 1 change to deploy; destructive: logfail (ALTER TABLE in sqitch\'s registry (schema "sqitch"), line 1: "ALTER TABLE sqitch.events ADD CONSTRAINT no_log CHECK (change <> \'logfail\') NOT VALID") (destructive)\n',
      );
      const approve = await r.run([
        ...approveLine(waiting.stderr),
        "--by",
        "ann",
      ]);
      expect(approve.code).toBe(0);
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain("chant-wave-no-revert-");
      expect(await r.deployed("c3")).toEqual(["accounts", "invoices"]);
      expect(await tables(pg, "c3")).toEqual(SEEDED);
    },
  );
});

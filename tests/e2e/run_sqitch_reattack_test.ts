// The attacks a fresh-eyed review of issue 35 got through, and their classes,
// end to end through the binary with real sqitch and a real PostgreSQL
// server, as a contributor who can push a change but cannot approve: each
// test deploys the example's first two changes to a tenant, fills its tables,
// pushes an attack, runs the wave, and then reads the database: the rows, the
// columns and the large objects are still there.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  type Postgres,
  requireSqitch,
  startPostgres,
} from "../_helpers/postgres.ts";
import {
  type Attack,
  attackChange,
  oneWaveSpec,
  planStatements,
  runThenApprove,
  SEEDED,
  seededRepo,
  SPEC_FLAGS,
  tenantTables,
} from "../_helpers/tenants.ts";

/**
 * A string literal that hides a DROP and a DELETE when the server reads
 * backslashes as escapes (standard_conforming_strings off), or when the client
 * encoding eats the backslash.
 */
const HIDDEN =
  "SELECT 'x\\', '; DROP TABLE invoices; DELETE FROM accounts; --';\n";

/** Adds a table of three large objects to the tenant's database. */
async function withLargeObjects(pg: Postgres, tenant: string): Promise<void> {
  await pg.sql(
    `tenant_${tenant}`,
    "CREATE TABLE documents (id int, content oid);" +
      "INSERT INTO documents SELECT g, lo_from_bytea(0, convert_to('secret ' || g, 'UTF8')) FROM generate_series(1, 3) g;",
  );
}

/** How many large objects the tenant's database holds. */
function largeObjects(pg: Postgres, tenant: string): Promise<string> {
  return pg.sql(
    `tenant_${tenant}`,
    "SELECT count(*) FROM pg_largeobject_metadata",
  );
}

Deno.test("issue 35 review, class 1: the target reaches libpq as plain text only", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  const cases: {
    name: string;
    tenant: string;
    attack: Attack;
    want: string;
  }[] = [
    {
      name:
        "a tab in the spec's URI would start libpq's options: the plan fails naming the target and the part (S1)",
      tenant: "a1",
      attack: {
        changes: [attackChange("hide", HIDDEN)],
        target:
          "db:pg:tenant_{target}%09options=-cstandard_conforming_strings=off",
      },
      want:
        'failed: plan of "a1": the target "db:pg:tenant_a1%09options=-cstandard_conforming_strings=off" holds "\\t" in its database name; chant-wave passes libpq only letters, digits and _ . - / : , @ ~ there\n',
    },
    {
      name: "a client encoding in an allowed parameter's value (S7)",
      tenant: "a2",
      attack: {
        changes: [
          attackChange(
            "sjis",
            "SELECT E'\u0081\\'; DROP TABLE invoices; DELETE FROM accounts; --';\n",
          ),
        ],
        target:
          "db:pg:tenant_{target}?application_name=tenant_{target}%09client_encoding=SJIS",
      },
      want:
        'failed: plan of "a2": the target "db:pg:tenant_a2?application_name=***" holds "\\t" in its parameter application_name; chant-wave passes libpq only letters, digits and _ . - / : , @ ~ there\n',
    },
    {
      name: "a named target's URI in sqitch.conf, checked the same way",
      tenant: "a3",
      attack: {
        changes: [attackChange("hide", HIDDEN)],
        target: "t_{target}",
        files: {
          "db/sqitch.conf":
            '[core]\n\tengine = pg\n[target "t_a3"]\n\turi = db:pg:tenant_a3?application_name=a3%09options=-cstandard_conforming_strings=off\n',
        },
      },
      want:
        'failed: plan of "a3": the target "t_a3" (URI "db:pg:tenant_a3?application_name=***" in sqitch\'s configuration) holds "\\t" in its parameter application_name',
    },
    {
      name:
        "a sqitch.conf value that runs onto the next line to forge the listing",
      tenant: "a4",
      attack: {
        changes: [attackChange("hide", HIDDEN)],
        target: "t_{target}",
        files: {
          "db/sqitch.conf":
            '[core]\n\tengine = pg\n[target "t_a4"]\n\turi = "db:pg:tenant_a4\noptions=-cstandard_conforming_strings=off"\n',
        },
      },
      want:
        "the project's sqitch.conf has a value that runs onto another line (line 4: a quote left open or a \\n)",
    },
  ];
  for (const { name, tenant, attack, want } of cases) {
    await t.step(name, async () => {
      await using r = await seededRepo(pg, tenant, "on-destructive", attack);
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(want);
      expect(await r.deployed(tenant)).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, tenant)).toEqual(SEEDED);
    });
  }
});

Deno.test("issue 35 review, class 2: the plan's identity covers the connection (S3)", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();
  const other = "db:pg:tenant_{target}?application_name=elsewhere";
  const notes = {
    changes: [attackChange("notes", "CREATE TABLE notes (id int);\n")],
  };

  await t.step(
    "an approved plan, then only the spec's target changed: a new digest, the job waits",
    async () => {
      await using r = await seededRepo(pg, "b1", "always", notes);
      await runThenApprove(r, ["run", ...SPEC_FLAGS, "--wave", "1"]);
      await r.repo.commit("the target only", {
        "waves.jsonc": oneWaveSpec("b1", { gate: "always" }, other),
      });
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toMatch(
        /^gate tenants-wave-1: waiting: the policy is "always"/m,
      );
      expect(out.stderr).not.toContain("approved by ann");
      expect(await r.deployed("b1")).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, "b1")).toEqual(SEEDED);
    },
  );

  await t.step(
    "a decided and approved wave whose target changes before its share job: refused as moved (exit 4)",
    async () => {
      await using r = await seededRepo(pg, "b2", "always", notes);
      const decide = ["run", ...SPEC_FLAGS, "--wave", "1", "--decide"];
      await runThenApprove(r, decide);
      expect((await r.run(decide)).code).toBe(0);
      await r.repo.commit("the target only", {
        "waves.jsonc": oneWaveSpec("b2", { gate: "always" }, other),
      });
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
        /^refused: b2: its plan moved since wave 1 was decided; decided sha256:[0-9a-f]{64}, planned now sha256:[0-9a-f]{64}$/m,
      );
      expect(await r.deployed("b2")).toEqual(["accounts", "invoices"]);
    },
  );
});

Deno.test("issue 35 review, class 3: a field or a qualified name that may call a function waits (S2)", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "c1", "on-destructive", {
    changes: [
      attackChange(
        "field",
        "SELECT d.id, (d.content).lo_unlink AS checked FROM documents d;\n",
      ),
      attackChange(
        "check",
        "ALTER TABLE documents ADD CONSTRAINT c CHECK ((content).lo_unlink = 1) NOT VALID;\nALTER TABLE documents VALIDATE CONSTRAINT c;\n",
      ),
      attackChange(
        "sibling",
        "CREATE FUNCTION public.purge(x oid) RETURNS int LANGUAGE sql AS $$ SELECT s.v FROM (SELECT 1) AS x, (SELECT x.lo_unlink AS v) s $$;\nSELECT public.purge(content) FROM documents;\n",
      ),
      attackChange(
        "plpgsql",
        "DO $$\nDECLARE x oid;\nBEGIN\n  FOR x IN SELECT content FROM documents LOOP\n    PERFORM (x).lo_unlink;\n  END LOOP;\nEND $$;\n",
      ),
    ],
  });
  await withLargeObjects(pg, "c1");
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    '  c1: 4 changes to deploy; destructive: field (a call of lo_unlink() written as a field, (…).lo_unlink, line 1: "SELECT d.id, (d.content).lo_unlink AS checked FROM documents d"), check (a call of lo_unlink() written as a field, (…).lo_unlink, line 1: "ALTER TABLE documents ADD CONSTRAINT c CHECK ((content).lo_unlink = 1) NOT VALID"), sibling (a call of lo_unlink() written as a column, x.lo_unlink ("x" names no table in reach) in the body of function public.purge, line 1: "CREATE FUNCTION public.purge(x oid) RETURNS int LANGUAGE sql AS $$ SELECT s.v FROM (SELECT 1) AS x, (SELECT x.lo_unlink…", and 1 more) and 1 more (destructive)\n',
  );
  expect(out.stderr).toContain(
    'gate tenants-wave-1: waiting: the policy is "on-destructive" and 1 member is destructive: "c1"\n',
  );
  expect(await planStatements(r, "c1")).toEqual({
    field: [
      "deploy/field.sql:1: a call of lo_unlink() written as a field, (…).lo_unlink: SELECT d.id, (d.content).lo_unlink AS checked FROM documents d",
    ],
    check: [
      "deploy/check.sql:1: a call of lo_unlink() written as a field, (…).lo_unlink: ALTER TABLE documents ADD CONSTRAINT c CHECK ((content).lo_unlink = 1) NOT VALID",
    ],
    sibling: [
      'deploy/sibling.sql:1: a call of lo_unlink() written as a column, x.lo_unlink ("x" names no table in reach) in the body of function public.purge: CREATE FUNCTION public.purge(x oid) RETURNS int LANGUAGE sql AS $$ SELECT s.v FROM (SELECT 1) AS x, (SELECT x.lo_unlink…',
      "deploy/sibling.sql:2: a call of public.purge(): SELECT public.purge(content) FROM documents",
    ],
    plpgsql: [
      "deploy/plpgsql.sql:1: a call of lo_unlink() written as a field, (…).lo_unlink at line 5 of the body of a DO block: DO $$ DECLARE x oid; BEGIN FOR x IN SELECT content FROM documents LOOP PERFORM (x).lo_unlink; END LOOP; END $$",
    ],
  });
  expect(await largeObjects(pg, "c1")).toBe("3");
  expect(await r.deployed("c1")).toEqual(["accounts", "invoices"]);
});

Deno.test("issue 35 review, class 4: psql variables are judged by their values, which chant-wave does not pass", async (t) => {
  await requireSqitch();
  await using pg = await startPostgres();

  await t.step(
    "a variable in sqitch.conf fails the plan, whatever its name (S4, S5, S6, SINGLELINE)",
    async () => {
      await using r = await seededRepo(pg, "d1", "on-destructive", {
        changes: [
          attackChange(
            "lower",
            'SELECT :"lower"(c.content) FROM documents c;\n',
          ),
        ],
        files: {
          "db/sqitch.conf":
            '[core]\n\tengine = pg\n[deploy "variables"]\n\tlower = lo_unlink\n\tSINGLELINE = on\n',
        },
      });
      await withLargeObjects(pg, "d1");
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        'failed: plan of "d1": sqitch\'s configuration sets the psql variable "deploy.variables.lower"; chant-wave lets sqitch pass none',
      );
      expect(await largeObjects(pg, "d1")).toBe("3");
    },
  );

  await t.step(
    "a variable psql or sqitch sets, quoted as a literal or an identifier, waits",
    async () => {
      await using r = await seededRepo(pg, "d2", "on-destructive", {
        changes: [
          attackChange(
            "body",
            "CREATE SCHEMA util;\nCREATE FUNCTION util.noop() RETURNS void LANGUAGE sql AS :'registry';\nSELECT :\"USER\";\n",
          ),
        ],
      });
      const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain(
        "  d2: 1 change to deploy; destructive: body (a psql variable (a literal psql pastes in from its value, which chant-wave does not see), line 2: \":'registry';\", and 2 more) (destructive)\n",
      );
      expect(await r.deployed("d2")).toEqual(["accounts", "invoices"]);
      expect(await tenantTables(pg, "d2")).toEqual(SEEDED);
    },
  );
});

Deno.test("issue 35 review, class 5: a write into sqitch's registry waits", async () => {
  await requireSqitch();
  await using pg = await startPostgres();
  await using r = await seededRepo(pg, "e1", "on-destructive", {
    changes: [
      attackChange(
        "forge",
        "INSERT INTO sqitch.events SELECT * FROM sqitch.events;\n",
      ),
    ],
  });
  const events = await pg.sql(
    "tenant_e1",
    "SELECT count(*) FROM sqitch.events",
  );
  const out = await r.run(["run", ...SPEC_FLAGS, "--wave", "1"]);
  expect(out.code).toBe(3);
  expect(out.stderr).toContain(
    '  e1: 1 change to deploy; destructive: forge (INSERT in sqitch\'s registry (schema "sqitch"), line 1: "INSERT INTO sqitch.events SELECT * FROM sqitch.events") (destructive)\n',
  );
  expect(await pg.sql("tenant_e1", "SELECT count(*) FROM sqitch.events"))
    .toBe(events);
  expect(await r.deployed("e1")).toEqual(["accounts", "invoices"]);
});

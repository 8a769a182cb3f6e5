// Qualified names under PostgreSQL's scoping rules, through the classifier:
// `q.c` is a column only when `q` names a relation in reach there, otherwise
// it may be the call `c(q)` (a SQL function's parameter `q`, a PL/pgSQL
// variable), and `(value).f` is the call `f(value)` unless the value has a
// field `f`. Each row's scoping was checked against PostgreSQL 15: where the
// judge sees no relation, PostgreSQL reports "missing FROM-clause entry" or
// "invalid reference to FROM-clause entry" in plain SQL, and resolves the name
// as a parameter in a SQL function's body.
// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  classifyScript,
  loadPgParser,
} from "../../../src/sqitch/sql/classify_script.ts";

const parser = await loadPgParser();

/** What the judge finds in a script, in order. */
async function whats(sql: string): Promise<string[]> {
  const verdict = await classifyScript(
    new TextEncoder().encode(sql),
    { parser, created: new Set(), schemas: new Set() },
    () => Promise.resolve(),
  );
  return verdict.findings.map((finding) => finding.what);
}

/** The finding of `q.c` read as a possible call of `c`. */
const asColumn = (written: string, qualifier: string, fn = "lo_unlink") =>
  `a call of ${fn}() written as a column, ${written} ("${qualifier}" names no table in reach)`;
/** The finding of `(value).f`. */
const asField = (fn: string) =>
  `a call of ${fn}() written as a field, (…).${fn}`;

Deno.test("a qualified name is a column only of a relation in reach", async (t) => {
  const cases: { name: string; sql: string; want: string[] }[] = [
    {
      name: "a table by its name",
      sql: "SELECT accounts.email FROM accounts;",
      want: [],
    },
    {
      name: "a table by its alias",
      sql: "SELECT a.email FROM accounts a;",
      want: [],
    },
    {
      name: "an alias hides the table's name",
      sql: "SELECT accounts.lo_unlink FROM accounts a;",
      want: [asColumn("accounts.lo_unlink", "accounts")],
    },
    {
      name: "schema.table.column of a table named with its schema",
      sql: "SELECT public.accounts.email FROM public.accounts;",
      want: [],
    },
    {
      name: "schema.table.column of a table named without it",
      sql: "SELECT public.accounts.lo_unlink FROM accounts;",
      want: [asColumn("public.accounts.lo_unlink", "public.accounts")],
    },
    {
      name: "a name no FROM holds",
      sql: "SELECT x.lo_unlink;",
      want: [asColumn("x.lo_unlink", "x")],
    },
    {
      name: "a harmless function's name passes wherever it is",
      sql: "SELECT x.lower;",
      want: [],
    },
    {
      name: "a CTE by its name",
      sql: "WITH c AS (SELECT 1 AS n) SELECT c.n FROM c;",
      want: [],
    },
    {
      name: "a CTE's query does not see the FROM of the query it belongs to",
      sql: "WITH c AS (SELECT a.lo_unlink) SELECT 1 FROM accounts a, c;",
      want: [asColumn("a.lo_unlink", "a")],
    },
    {
      name: "a subquery in FROM by its alias",
      sql: "SELECT s.n FROM (SELECT 1 AS n) s;",
      want: [],
    },
    {
      name: "a subquery in FROM does not see its siblings",
      sql: "SELECT 1 FROM documents d, (SELECT d.lo_unlink) s;",
      want: [asColumn("d.lo_unlink", "d")],
    },
    {
      name:
        "the attack: a parameter hidden behind a sibling subquery's alias of the same name",
      sql:
        "CREATE FUNCTION app.f(x oid) RETURNS int LANGUAGE sql AS $$ SELECT s.v FROM (SELECT 1) AS x, (SELECT x.lo_unlink AS v) s $$;",
      want: [`${asColumn("x.lo_unlink", "x")} in the body of function app.f`],
    },
    {
      name: "LATERAL sees the siblings before it",
      sql: "SELECT s.n FROM accounts a, LATERAL (SELECT a.email AS n) s;",
      want: [],
    },
    {
      name: "LATERAL does not see the siblings after it",
      sql: "SELECT 1 FROM LATERAL (SELECT a.lo_unlink) s, accounts a;",
      want: [asColumn("a.lo_unlink", "a")],
    },
    {
      name: "a function in FROM sees the siblings before it, LATERAL or not",
      sql:
        "SELECT g.g FROM accounts a, generate_series(1, a.id) g;\nSELECT generate_series.generate_series FROM generate_series(1, 2);",
      want: [],
    },
    {
      name: "JOIN … ON sees both sides of its join",
      sql: "SELECT 1 FROM accounts a JOIN invoices i ON i.account_id = a.id;",
      want: [],
    },
    {
      name: "JOIN … ON sees nothing else of its FROM",
      sql:
        "SELECT 1 FROM documents d, accounts a JOIN invoices i ON d.lo_unlink = 1;",
      want: [asColumn("d.lo_unlink", "d")],
    },
    {
      name: "a JOIN's alias hides the tables inside it",
      sql:
        "SELECT j.id FROM (accounts a JOIN invoices i USING (id)) j;\nSELECT a.lo_unlink FROM (accounts a JOIN invoices i USING (id)) j;",
      want: [asColumn("a.lo_unlink", "a")],
    },
    {
      name: "the alias of a JOIN's USING",
      sql: "SELECT u.id FROM accounts a JOIN invoices i USING (id) AS u;",
      want: [],
    },
    {
      name: "a subquery in WHERE sees the query around it",
      sql:
        "SELECT 1 FROM accounts a WHERE EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = a.id);",
      want: [],
    },
    {
      name: "the arms of a UNION do not see each other",
      sql:
        "SELECT a.id FROM accounts a UNION SELECT a.lo_unlink FROM invoices i;",
      want: [asColumn("a.lo_unlink", "a")],
    },
    {
      name: "INSERT's query does not see its target",
      sql:
        "INSERT INTO accounts (email) SELECT accounts.lo_unlink FROM invoices;",
      want: [asColumn("accounts.lo_unlink", "accounts")],
    },
    {
      name: "INSERT's ON CONFLICT and RETURNING see its target",
      sql:
        "INSERT INTO accounts AS a (email) VALUES ('x') ON CONFLICT (email) WHERE a.note IS NULL DO NOTHING RETURNING a.id;",
      want: [],
    },
    {
      name: "a table's checks and index expressions see the table",
      sql:
        "CREATE TABLE t (n int CHECK (t.n > 0));\nALTER TABLE accounts ADD CONSTRAINT c CHECK (accounts.id > 0);\nCREATE INDEX ON accounts ((accounts.email)) WHERE accounts.note IS NULL;",
      want: [],
    },
    {
      name: "a generated column sees its table",
      sql:
        "CREATE TABLE t (a int, b int GENERATED ALWAYS AS (t.a * 2) STORED);",
      want: [],
    },
    {
      name: "a VALUES list sees no FROM item of its query",
      sql: "SELECT 1 FROM documents d, (VALUES (d.lo_unlink)) v(x);",
      want: [asColumn("d.lo_unlink", "d")],
    },
    {
      name: "a domain's check sees no table",
      sql: "CREATE DOMAIN d AS oid CHECK (d.lo_unlink > 0);",
      want: [asColumn("d.lo_unlink", "d")],
    },
    {
      name:
        "a PL/pgSQL record's field may be a call (read as one, failing closed)",
      sql:
        "DO $$ DECLARE r record; BEGIN\nFOR r IN SELECT id FROM accounts LOOP\nPERFORM r.id;\nEND LOOP;\nEND $$;",
      want: [
        `${asColumn("r.id", "r", "id")} at line 3 of the body of a DO block`,
      ],
    },
    {
      name: "a trigger function's NEW.column too",
      sql:
        "CREATE FUNCTION app.stamp() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN NEW.total;\nEND $$;",
      want: [
        `${
          asColumn("new.total", "new", "total")
        } at line 3 of the body of function app.stamp`,
      ],
    },
  ];
  for (const { name, sql, want } of cases) {
    await t.step(name, async () => expect(await whats(sql)).toEqual(want));
  }
});

Deno.test("a field of a value is a call of the function of that name", async (t) => {
  const cases: { name: string; sql: string; want: string[] }[] = [
    {
      name: "a column's value",
      sql: "SELECT d.id, (d.content).lo_unlink AS checked FROM documents d;",
      want: [asField("lo_unlink")],
    },
    {
      name: "a constant",
      sql: "SELECT (123456::oid).lo_unlink;",
      want: [asField("lo_unlink")],
    },
    {
      name: "after a subscript",
      sql: "SELECT d.oids[1].lo_unlink FROM documents d;",
      want: [asField("lo_unlink")],
    },
    {
      name: "in a check validated later",
      sql:
        "ALTER TABLE documents ADD CONSTRAINT c CHECK ((content).lo_unlink = 1) NOT VALID;\nALTER TABLE documents VALIDATE CONSTRAINT c;",
      want: [asField("lo_unlink")],
    },
    {
      name: "in PL/pgSQL",
      sql:
        "DO $$ DECLARE x oid := 123456; BEGIN\nPERFORM (x).lo_unlink;\nEND $$;",
      want: [`${asField("lo_unlink")} at line 2 of the body of a DO block`],
    },
    {
      name: "a composite's field is read as a call too, unless harmless",
      sql:
        "SELECT (m).cents, (m).upper, (m).* FROM (SELECT NULL::record) s(m);",
      want: [asField("cents")],
    },
  ];
  for (const { name, sql, want } of cases) {
    await t.step(name, async () => expect(await whats(sql)).toEqual(want));
  }
});

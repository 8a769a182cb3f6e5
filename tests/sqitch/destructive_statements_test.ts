// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { destructiveStatements } from "../../src/sqitch/destructive_statements.ts";

/** The findings of a script, as `<what> @<line>`. */
function found(script: string): string[] {
  return destructiveStatements(script).findings.map((f) =>
    `${f.what} @${f.line}`
  );
}

Deno.test("destructiveStatements() finds what destroys or rewrites data", async (t) => {
  const cases: { name: string; script: string; want: string[] }[] = [
    { name: "DROP TABLE", script: "DROP TABLE a;", want: ["DROP TABLE @1"] },
    {
      name: "every DROP, named by its kind",
      script:
        "drop schema s cascade;\nDROP INDEX i;\nDROP TYPE t;\nDROP MATERIALIZED VIEW v;",
      want: [
        "DROP SCHEMA @1",
        "DROP INDEX @2",
        "DROP TYPE @3",
        "DROP MATERIALIZED VIEW @4",
      ],
    },
    { name: "TRUNCATE", script: "TRUNCATE a, b;", want: ["TRUNCATE @1"] },
    {
      name: "a DROP of a kind that is no keyword is not echoed",
      script: "DROP \u202etable a;",
      want: ["DROP @1"],
    },
    {
      name: "a dropped column, with or without COLUMN",
      script:
        "ALTER TABLE a DROP COLUMN x;\nALTER TABLE IF EXISTS a DROP y, ADD z int;",
      want: [
        "ALTER TABLE … DROP COLUMN @1",
        "ALTER TABLE … DROP COLUMN @2",
      ],
    },
    {
      name: "a type's dropped attribute",
      script: "ALTER TYPE t DROP ATTRIBUTE a;",
      want: ["ALTER TYPE … DROP ATTRIBUTE @1"],
    },
    {
      name: "a column's new type",
      script:
        "ALTER TABLE a ALTER COLUMN b TYPE text;\nALTER TABLE a ALTER c SET DATA TYPE int;\nALTER TABLE a ALTER COLUMN type TYPE int;",
      want: [
        "ALTER TABLE … TYPE @1",
        "ALTER TABLE … TYPE @2",
        "ALTER TABLE … TYPE @3",
      ],
    },
    {
      name: "renames",
      script:
        "ALTER TABLE a RENAME TO b;\nALTER TABLE b RENAME COLUMN x TO y;\nALTER TYPE mood RENAME VALUE 'a' TO 'b';",
      want: [
        "ALTER TABLE … RENAME @1",
        "ALTER TABLE … RENAME @2",
        "ALTER TYPE … RENAME @3",
      ],
    },
    {
      name: "DELETE and UPDATE without WHERE",
      script:
        "DELETE FROM a;\nUPDATE a SET x = (SELECT y FROM b WHERE b.id = 1);",
      want: ["DELETE without WHERE @1", "UPDATE without WHERE @2"],
    },
    {
      name:
        "an unbounded write in a CTE, after WITH, behind EXPLAIN ANALYZE or PREPARE",
      script: [
        "WITH gone AS (DELETE FROM a RETURNING *) SELECT count(*) FROM gone;",
        "WITH x AS (SELECT 1) UPDATE a SET b = 1;",
        "EXPLAIN ANALYZE DELETE FROM a;",
        "PREPARE p AS UPDATE a SET b = 2;",
      ].join("\n"),
      want: [
        "DELETE without WHERE @1",
        "UPDATE without WHERE @2",
        "DELETE without WHERE @3",
        "UPDATE without WHERE @4",
      ],
    },
    {
      name: "a DO block, whose code is not analysed",
      script: "DO $$ BEGIN EXECUTE 'DROP TABLE a'; END $$;",
      want: ["DO block (runs code that is not analysed) @1"],
    },
    {
      name:
        "psql running other files or query output, and a command after \\\\",
      script:
        "\\i drop.sql\n\\ir other.sql\nSELECT 'DROP TABLE a' \\gexec\n\\echo hi \\\\ DROP TABLE b;",
      want: [
        "psql \\i (not analysed) @1",
        "psql \\ir (not analysed) @2",
        "psql \\gexec (not analysed) @3",
        "psql \\echo followed by \\\\ (SQL after it) @4",
      ],
    },
    {
      name: "a raw psql variable, which psql replaces with SQL",
      script: "\\set d 'DROP TABLE a'\n:d;",
      want: ["psql variable :d (not analysed) @2"],
    },
    {
      name:
        "a changed standard_conforming_strings, which changes how strings are read",
      script:
        "SET standard_conforming_strings = off;\nSELECT set_config('standard_conforming_strings', 'off', false);",
      want: [
        "standard_conforming_strings (changes how strings are read) @1",
        "standard_conforming_strings (changes how strings are read) @2",
      ],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(found(c.script)).toEqual(c.want));
  }
});

Deno.test("destructiveStatements() does not count what only looks destructive", async (t) => {
  const cases: { name: string; script: string }[] = [
    {
      name: "DROP in line and block comments",
      script:
        "-- DROP TABLE a;\n/* TRUNCATE a; /* DELETE FROM a */ */ SELECT 1;",
    },
    {
      name: "DROP in a string",
      script: "SELECT 'DROP TABLE a; DELETE FROM a';",
    },
    {
      name: "DROP in an E string with an escaped quote",
      script: "SELECT E'\\'; DROP TABLE a; --';",
    },
    {
      name: "DROP in a dollar-quoted body",
      script:
        "CREATE FUNCTION f() RETURNS void LANGUAGE sql AS $body$ DELETE FROM a $body$;",
    },
    {
      name: "DROP in a quoted identifier",
      script: 'CREATE TABLE "drop table a" ("truncate" int);',
    },
    {
      name: "DELETE and UPDATE with WHERE",
      script:
        "DELETE FROM a WHERE id = 1;\nUPDATE a SET b = 1 WHERE c;\nDELETE FROM a USING b WHERE a.id = b.id;",
    },
    {
      name: "DELETE and UPDATE as keywords of other statements",
      script:
        "CREATE TABLE b (a int REFERENCES a ON DELETE CASCADE ON UPDATE SET NULL);\nSELECT * FROM a FOR UPDATE;\nGRANT SELECT, UPDATE, DELETE ON a TO r;\nCREATE TRIGGER t BEFORE INSERT OR UPDATE ON a FOR EACH ROW EXECUTE FUNCTION f();\nINSERT INTO a VALUES (1) ON CONFLICT (id) DO UPDATE SET b = 2;\nCREATE POLICY p ON a FOR DELETE USING (true);",
    },
    {
      name: "harmless ALTER … DROP and a column named type",
      script:
        "ALTER TABLE a ALTER COLUMN b DROP DEFAULT, ALTER COLUMN c DROP NOT NULL;\nALTER TABLE a DROP CONSTRAINT a_check;\nALTER TABLE a ALTER COLUMN type SET DEFAULT 'x';\nALTER TABLE a ADD COLUMN type text;",
    },
    {
      name: "quoted psql variables, casts and harmless meta-commands",
      script:
        "\\set ON_ERROR_STOP on\nCREATE TABLE :\"schema\".a (b int DEFAULT :'one'::int);",
    },
    {
      name: "a temporary table dropped on commit",
      script: "CREATE TEMP TABLE t (a int) ON COMMIT DROP;",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(found(c.script)).toEqual([]));
  }
});

Deno.test("destructiveStatements() finds the not-destructive mark in a line comment only", async (t) => {
  const cases: { name: string; script: string; marked: boolean }[] = [
    {
      name: "alone",
      script: "-- chant-wave: not destructive\nDROP TABLE a;",
      marked: true,
    },
    {
      name: "with a reason",
      script: "DROP TABLE a; -- chant-wave: not destructive: it was empty",
      marked: true,
    },
    {
      name: "in a string",
      script: "SELECT '\n-- chant-wave: not destructive\n'; DROP TABLE a;",
      marked: false,
    },
    {
      name: "in a dollar-quoted body",
      script: "DO $$\n-- chant-wave: not destructive\n$$;",
      marked: false,
    },
    {
      name: "in a block comment",
      script: "/* chant-wave: not destructive */ DROP TABLE a;",
      marked: false,
    },
    {
      name: "another word after it",
      script: "-- chant-wave: not destructiveness\nDROP TABLE a;",
      marked: false,
    },
  ];
  for (const c of cases) {
    await t.step(
      c.name,
      () => expect(destructiveStatements(c.script).marked).toBe(c.marked),
    );
  }
});

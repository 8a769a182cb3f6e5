// The allow-list, table-driven: every listed shape passes, and for every kind
// of statement node PostgreSQL's parser knows (the `Node` type of
// @pgsql/types, the parser's own node types: a new one fails type checking
// here until it has a row), a script holding one that is not listed, or that
// breaks a listed shape's conditions, is destructive, named by its kind. And
// docs/sqitch.md lists exactly what is allowed.
// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import type { Node } from "@pgsql/types";
import {
  ALLOWED_SHAPES,
  classifyScript,
  HARMLESS_FUNCTIONS,
  loadPgParser,
} from "../../../src/sqitch/sql/classify_script.ts";

const parser = await loadPgParser();

/** Every key of every member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;
/** Every statement node type of PostgreSQL's parser. */
type StatementNode = Extract<KeysOf<Node>, `${string}Stmt`>;

/**
 * A script holding the node and what its first finding says; or why the raw
 * parser never gives the node for a script; or "listed" for a node on the
 * list whose shape has no condition to break.
 */
type Row = { sql: string; want: string } | { never: string } | "listed";

const ROWS: Record<StatementNode, Row> = {
  RawStmt: {
    never: "the wrapper of every statement: the statement inside is judged",
  },
  SetOperationStmt: {
    never: "made by the analyzer; the raw parser gives UNION as a SelectStmt",
  },
  PLAssignStmt: {
    never: "PL/pgSQL's assignment: judged as an expression of the body",
  },
  InsertStmt: {
    sql: "INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET x = 1;",
    want: "INSERT … ON CONFLICT DO UPDATE",
  },
  DeleteStmt: { sql: "DELETE FROM t WHERE true;", want: "DELETE" },
  UpdateStmt: { sql: "UPDATE t SET x = 1 WHERE false;", want: "UPDATE" },
  MergeStmt: {
    sql: "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE;",
    want: "MERGE",
  },
  SelectStmt: { sql: "SELECT * INTO backup FROM t;", want: "SELECT INTO" },
  ReturnStmt: {
    sql:
      "CREATE FUNCTION app.f() RETURNS int LANGUAGE sql RETURN set_config('a', 'b', false)::int;",
    want: "a call of set_config() in the body of function app.f",
  },
  CreateSchemaStmt: {
    sql:
      "CREATE SCHEMA s CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION f();",
    want: "CREATE TRIGGER",
  },
  AlterTableStmt: {
    sql: "ALTER TABLE accounts DROP COLUMN name;",
    want: "ALTER TABLE … DROP COLUMN",
  },
  ReplicaIdentityStmt: {
    sql: "ALTER TABLE t REPLICA IDENTITY FULL;",
    want: "ALTER TABLE … REPLICA IDENTITY",
  },
  AlterCollationStmt: {
    sql: "ALTER COLLATION c REFRESH VERSION;",
    want: "ALTER COLLATION",
  },
  AlterDomainStmt: {
    sql: "ALTER DOMAIN d DROP CONSTRAINT c;",
    want: "ALTER DOMAIN",
  },
  GrantStmt: { sql: "GRANT DELETE ON t TO PUBLIC;", want: "GRANT" },
  GrantRoleStmt: { sql: "GRANT admin TO app;", want: "GRANT ROLE" },
  AlterDefaultPrivilegesStmt: {
    sql: "ALTER DEFAULT PRIVILEGES GRANT DELETE ON TABLES TO PUBLIC;",
    want: "ALTER DEFAULT PRIVILEGES",
  },
  CopyStmt: { sql: "COPY t FROM '/tmp/rows';", want: "COPY" },
  VariableSetStmt: {
    sql: "SET search_path = evil, pg_catalog;",
    want: "SET search_path (a setting changes how later statements run)",
  },
  VariableShowStmt: { sql: "SHOW search_path;", want: "SHOW" },
  CreateStmt: {
    sql: "CREATE TABLE t (id int DEFAULT pg_terminate_backend(1)::int);",
    want: "a call of pg_terminate_backend()",
  },
  CreateTableSpaceStmt: {
    sql: "CREATE TABLESPACE ts LOCATION '/tmp';",
    want: "CREATE TABLESPACE",
  },
  DropTableSpaceStmt: { sql: "DROP TABLESPACE ts;", want: "DROP TABLESPACE" },
  AlterTableSpaceOptionsStmt: {
    sql: "ALTER TABLESPACE ts SET (seq_page_cost = 1);",
    want: "ALTER TABLESPACE",
  },
  AlterTableMoveAllStmt: {
    sql: "ALTER TABLE ALL IN TABLESPACE a SET TABLESPACE b;",
    want: "ALTER … ALL IN TABLESPACE",
  },
  CreateExtensionStmt: {
    sql: "CREATE EXTENSION dblink;",
    want: "CREATE EXTENSION",
  },
  AlterExtensionStmt: {
    sql: "ALTER EXTENSION e UPDATE;",
    want: "ALTER EXTENSION",
  },
  AlterExtensionContentsStmt: {
    sql: "ALTER EXTENSION e DROP TABLE t;",
    want: "ALTER EXTENSION … ADD/DROP",
  },
  CreateFdwStmt: {
    sql: "CREATE FOREIGN DATA WRAPPER w;",
    want: "CREATE FOREIGN DATA WRAPPER",
  },
  AlterFdwStmt: {
    sql: "ALTER FOREIGN DATA WRAPPER w NO VALIDATOR;",
    want: "ALTER FOREIGN DATA WRAPPER",
  },
  CreateForeignServerStmt: {
    sql: "CREATE SERVER s FOREIGN DATA WRAPPER w;",
    want: "CREATE SERVER",
  },
  AlterForeignServerStmt: {
    sql: "ALTER SERVER s VERSION '2';",
    want: "ALTER SERVER",
  },
  CreateForeignTableStmt: {
    sql: "CREATE FOREIGN TABLE ft (id int) SERVER s;",
    want: "CREATE FOREIGN TABLE",
  },
  CreateUserMappingStmt: {
    sql: "CREATE USER MAPPING FOR PUBLIC SERVER s;",
    want: "CREATE USER MAPPING",
  },
  AlterUserMappingStmt: {
    sql: "ALTER USER MAPPING FOR PUBLIC SERVER s OPTIONS (user 'x');",
    want: "ALTER USER MAPPING",
  },
  DropUserMappingStmt: {
    sql: "DROP USER MAPPING FOR PUBLIC SERVER s;",
    want: "DROP USER MAPPING",
  },
  ImportForeignSchemaStmt: {
    sql: "IMPORT FOREIGN SCHEMA r FROM SERVER s INTO l;",
    want: "IMPORT FOREIGN SCHEMA",
  },
  CreatePolicyStmt: {
    sql: "CREATE POLICY p ON t USING (false);",
    want: "CREATE POLICY",
  },
  AlterPolicyStmt: {
    sql: "ALTER POLICY p ON t USING (false);",
    want: "ALTER POLICY",
  },
  CreateAmStmt: {
    sql: "CREATE ACCESS METHOD m TYPE TABLE HANDLER h;",
    want: "CREATE ACCESS METHOD",
  },
  CreateTrigStmt: {
    sql:
      "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f();",
    want: "CREATE TRIGGER",
  },
  CreateEventTrigStmt: {
    sql: "CREATE EVENT TRIGGER e ON ddl_command_start EXECUTE FUNCTION f();",
    want: "CREATE EVENT TRIGGER",
  },
  AlterEventTrigStmt: {
    sql: "ALTER EVENT TRIGGER e DISABLE;",
    want: "ALTER EVENT TRIGGER",
  },
  CreatePLangStmt: {
    sql: "CREATE TRUSTED LANGUAGE x HANDLER h;",
    want: "CREATE LANGUAGE",
  },
  CreateRoleStmt: { sql: "CREATE ROLE r SUPERUSER;", want: "CREATE ROLE" },
  AlterRoleStmt: { sql: "ALTER ROLE r SUPERUSER;", want: "ALTER ROLE" },
  AlterRoleSetStmt: {
    sql: "ALTER ROLE r SET search_path = evil;",
    want: "ALTER ROLE SET",
  },
  DropRoleStmt: { sql: "DROP ROLE r;", want: "DROP ROLE" },
  CreateSeqStmt: "listed",
  AlterSeqStmt: { sql: "ALTER SEQUENCE s RESTART;", want: "ALTER SEQUENCE" },
  DefineStmt: {
    sql: "CREATE AGGREGATE a (int) (SFUNC = f, STYPE = int);",
    want: "CREATE AGGREGATE",
  },
  CreateDomainStmt: {
    sql: "CREATE DOMAIN d AS int DEFAULT app.evil();",
    want: "a call of app.evil()",
  },
  CreateOpClassStmt: {
    sql: "CREATE OPERATOR CLASS c FOR TYPE int USING btree AS OPERATOR 1 <;",
    want: "CREATE OPERATOR CLASS",
  },
  CreateOpFamilyStmt: {
    sql: "CREATE OPERATOR FAMILY f USING btree;",
    want: "CREATE OPERATOR FAMILY",
  },
  AlterOpFamilyStmt: {
    sql: "ALTER OPERATOR FAMILY f USING btree ADD OPERATOR 1 < (int, int);",
    want: "ALTER OPERATOR FAMILY",
  },
  DropStmt: { sql: "DROP TABLE accounts;", want: "DROP TABLE" },
  TruncateStmt: { sql: "TRUNCATE accounts;", want: "TRUNCATE" },
  CommentStmt: "listed",
  SecLabelStmt: {
    sql: "SECURITY LABEL ON TABLE t IS 'x';",
    want: "SECURITY LABEL",
  },
  DeclareCursorStmt: {
    sql: "DECLARE c CURSOR FOR SELECT 1;",
    want: "DECLARE CURSOR",
  },
  ClosePortalStmt: { sql: "CLOSE c;", want: "CLOSE" },
  FetchStmt: { sql: "FETCH c;", want: "FETCH" },
  IndexStmt: {
    sql: "CREATE INDEX i ON t (app.evil(x));",
    want: "a call of app.evil()",
  },
  CreateStatsStmt: {
    sql: "CREATE STATISTICS s ON a, b FROM t;",
    want: "CREATE STATISTICS",
  },
  AlterStatsStmt: {
    sql: "ALTER STATISTICS s SET STATISTICS 10;",
    want: "ALTER STATISTICS",
  },
  CreateFunctionStmt: {
    sql:
      "CREATE OR REPLACE FUNCTION app.f() RETURNS int LANGUAGE sql RETURN 1;",
    want: "CREATE OR REPLACE FUNCTION",
  },
  AlterFunctionStmt: {
    sql: "ALTER FUNCTION f() SECURITY DEFINER;",
    want: "ALTER FUNCTION",
  },
  DoStmt: {
    sql: "DO $$ BEGIN EXECUTE 'DROP TABLE t'; END $$;",
    want: "EXECUTE of a string at line 1 of the body of a DO block",
  },
  CallStmt: { sql: "CALL p();", want: "CALL" },
  RenameStmt: {
    sql: "ALTER TABLE accounts RENAME TO accounts_old;",
    want: "ALTER TABLE … RENAME",
  },
  AlterObjectDependsStmt: {
    sql: "ALTER FUNCTION f() DEPENDS ON EXTENSION e;",
    want: "ALTER … DEPENDS ON EXTENSION",
  },
  AlterObjectSchemaStmt: {
    sql: "ALTER TABLE t SET SCHEMA s;",
    want: "ALTER TABLE … SET SCHEMA",
  },
  AlterOwnerStmt: {
    sql: "ALTER FUNCTION f() OWNER TO r;",
    want: "ALTER FUNCTION … OWNER TO",
  },
  AlterOperatorStmt: {
    sql: "ALTER OPERATOR + (int, int) SET (RESTRICT = NONE);",
    want: "ALTER OPERATOR",
  },
  AlterTypeStmt: { sql: "ALTER TYPE t SET (SEND = none);", want: "ALTER TYPE" },
  RuleStmt: {
    sql: "CREATE RULE r AS ON INSERT TO t DO ALSO DELETE FROM u;",
    want: "CREATE RULE",
  },
  NotifyStmt: { sql: "NOTIFY c;", want: "NOTIFY" },
  ListenStmt: { sql: "LISTEN c;", want: "LISTEN" },
  UnlistenStmt: { sql: "UNLISTEN c;", want: "UNLISTEN" },
  TransactionStmt: {
    sql: "PREPARE TRANSACTION 'x';",
    want: "PREPARE TRANSACTION",
  },
  CompositeTypeStmt: "listed",
  CreateEnumStmt: "listed",
  CreateRangeStmt: {
    sql: "CREATE TYPE r AS RANGE (SUBTYPE = int);",
    want: "CREATE RANGE",
  },
  AlterEnumStmt: {
    sql: "ALTER TYPE e RENAME VALUE 'a' TO 'b';",
    want: "ALTER TYPE … RENAME VALUE",
  },
  ViewStmt: {
    sql: "CREATE OR REPLACE VIEW v AS SELECT 1;",
    want: "CREATE OR REPLACE VIEW",
  },
  LoadStmt: { sql: "LOAD 'plugin';", want: "LOAD" },
  CreatedbStmt: { sql: "CREATE DATABASE d;", want: "CREATE DATABASE" },
  AlterDatabaseStmt: {
    sql: "ALTER DATABASE d ALLOW_CONNECTIONS false;",
    want: "ALTER DATABASE",
  },
  AlterDatabaseRefreshCollStmt: {
    sql: "ALTER DATABASE d REFRESH COLLATION VERSION;",
    want: "ALTER DATABASE … REFRESH COLLATION VERSION",
  },
  AlterDatabaseSetStmt: {
    sql: "ALTER DATABASE d SET standard_conforming_strings = off;",
    want: "ALTER DATABASE SET",
  },
  DropdbStmt: { sql: "DROP DATABASE d;", want: "DROP DATABASE" },
  AlterSystemStmt: {
    sql: "ALTER SYSTEM SET fsync = off;",
    want: "ALTER SYSTEM",
  },
  ClusterStmt: { sql: "CLUSTER t USING i;", want: "CLUSTER" },
  VacuumStmt: { sql: "VACUUM FULL t;", want: "VACUUM" },
  ExplainStmt: { sql: "EXPLAIN ANALYZE DELETE FROM t;", want: "EXPLAIN" },
  CreateTableAsStmt: {
    sql: "CREATE TABLE copy AS SELECT * FROM t;",
    want: "CREATE TABLE AS",
  },
  RefreshMatViewStmt: {
    sql: "REFRESH MATERIALIZED VIEW m;",
    want: "REFRESH MATERIALIZED VIEW",
  },
  CheckPointStmt: { sql: "CHECKPOINT;", want: "CHECKPOINT" },
  DiscardStmt: { sql: "DISCARD ALL;", want: "DISCARD" },
  LockStmt: { sql: "LOCK TABLE t;", want: "LOCK" },
  ConstraintsSetStmt: {
    sql: "SET CONSTRAINTS ALL DEFERRED;",
    want: "SET CONSTRAINTS",
  },
  ReindexStmt: { sql: "REINDEX TABLE t;", want: "REINDEX" },
  CreateConversionStmt: {
    sql: "CREATE CONVERSION c FOR 'LATIN1' TO 'UTF8' FROM f;",
    want: "CREATE CONVERSION",
  },
  CreateCastStmt: {
    sql: "CREATE CAST (int AS text) WITH FUNCTION f(int);",
    want: "CREATE CAST",
  },
  CreateTransformStmt: {
    sql:
      "CREATE TRANSFORM FOR int LANGUAGE plpgsql (FROM SQL WITH FUNCTION f(internal));",
    want: "CREATE TRANSFORM",
  },
  PrepareStmt: { sql: "PREPARE p AS DELETE FROM t;", want: "PREPARE" },
  ExecuteStmt: { sql: "EXECUTE p;", want: "EXECUTE" },
  DeallocateStmt: { sql: "DEALLOCATE p;", want: "DEALLOCATE" },
  DropOwnedStmt: { sql: "DROP OWNED BY r;", want: "DROP OWNED" },
  ReassignOwnedStmt: {
    sql: "REASSIGN OWNED BY r TO s;",
    want: "REASSIGN OWNED",
  },
  AlterTSDictionaryStmt: {
    sql: "ALTER TEXT SEARCH DICTIONARY d (x = 1);",
    want: "ALTER TEXT SEARCH DICTIONARY",
  },
  AlterTSConfigurationStmt: {
    sql: "ALTER TEXT SEARCH CONFIGURATION c DROP MAPPING FOR word;",
    want: "ALTER TEXT SEARCH CONFIGURATION",
  },
  CreatePublicationStmt: {
    sql: "CREATE PUBLICATION p FOR ALL TABLES;",
    want: "CREATE PUBLICATION",
  },
  AlterPublicationStmt: {
    sql: "ALTER PUBLICATION p DROP TABLE t;",
    want: "ALTER PUBLICATION",
  },
  CreateSubscriptionStmt: {
    sql: "CREATE SUBSCRIPTION s CONNECTION 'x' PUBLICATION p;",
    want: "CREATE SUBSCRIPTION",
  },
  AlterSubscriptionStmt: {
    sql: "ALTER SUBSCRIPTION s DISABLE;",
    want: "ALTER SUBSCRIPTION",
  },
  DropSubscriptionStmt: {
    sql: "DROP SUBSCRIPTION s;",
    want: "DROP SUBSCRIPTION",
  },
};

/** The findings of a script, as `<what>`, with no includes followed. */
async function whats(
  sql: string,
  created: Set<string> = new Set(),
  registries?: Set<string>,
): Promise<string[]> {
  const verdict = await classifyScript(
    new TextEncoder().encode(sql),
    { parser, created, schemas: new Set(), registries },
    () => Promise.resolve(),
  );
  return verdict.findings.map((finding) => finding.what);
}

/** Whether the script's parse tree holds a node of the type. */
function holds(sql: string, node: string): boolean {
  const parsed = parser.parse(sql);
  return parsed.ok && JSON.stringify(parsed.value).includes(`"${node}":`);
}

Deno.test("ALLOWED_SHAPES: every listed shape passes", async (t) => {
  for (const { node, example } of ALLOWED_SHAPES) {
    await t.step(`${node}: ${example}`, async () => {
      expect(holds(example, node)).toBe(true);
      expect(await whats(example, new Set())).toEqual([]);
    });
  }
});

Deno.test("every statement node of the parser not on the list, or breaking its shape, is destructive", async (t) => {
  const listed = new Set(ALLOWED_SHAPES.map((shape) => shape.node));
  for (const [node, row] of Object.entries(ROWS)) {
    await t.step(node, async () => {
      if (row === "listed") {
        expect(listed.has(node)).toBe(true);
        return;
      }
      if ("never" in row) {
        expect(["RawStmt", "SetOperationStmt", "PLAssignStmt"]).toContain(node);
        return;
      }
      expect(holds(row.sql, node)).toBe(true);
      expect((await whats(row.sql))[0]).toBe(row.want);
    });
  }
});

Deno.test("statementRefusals() holds each listed shape to its conditions", async (t) => {
  const cases: { name: string; sql: string; want: string[] }[] = [
    {
      name: "a foreign key that cascades a delete to rows a table has",
      sql:
        "ALTER TABLE invoices ADD FOREIGN KEY (account_id) REFERENCES accounts ON DELETE CASCADE;",
      want: ["ALTER TABLE … FOREIGN KEY … ON DELETE CASCADE"],
    },
    {
      name: "a new table's foreign key may cascade",
      sql:
        "CREATE TABLE lines (invoice_id bigint REFERENCES invoices ON DELETE CASCADE);",
      want: [],
    },
    {
      name: "a volatile default rewrites the table",
      sql: "ALTER TABLE t ADD COLUMN token uuid DEFAULT gen_random_uuid();",
      want: [
        "a default calling gen_random_uuid(), which is volatile (it rewrites the table)",
      ],
    },
    {
      name: "a serial column rewrites the table",
      sql: "ALTER TABLE t ADD COLUMN n bigserial;",
      want: [
        "ALTER TABLE … ADD COLUMN of type bigserial (it rewrites the table)",
      ],
    },
    {
      name: "an identity column rewrites the table",
      sql: "ALTER TABLE t ADD COLUMN n int GENERATED ALWAYS AS IDENTITY;",
      want: ["ALTER TABLE … ADD COLUMN … IDENTITY (it rewrites the table)"],
    },
    {
      name: "a key made from an index renames the index",
      sql: "ALTER TABLE t ADD CONSTRAINT t_pkey PRIMARY KEY USING INDEX t_id;",
      want: ["ALTER TABLE … ADD PRIMARY USING INDEX (it renames the index)"],
    },
    {
      name: "changing a column's type or default",
      sql:
        "ALTER TABLE t ALTER COLUMN x TYPE text, ALTER COLUMN y SET DEFAULT 0;",
      want: ["ALTER TABLE … ALTER COLUMN TYPE", "ALTER TABLE … COLUMN DEFAULT"],
    },
    {
      name: "ALTER of something other than a table",
      sql: "ALTER VIEW v ALTER COLUMN x SET DEFAULT 1;",
      want: ["ALTER VIEW"],
    },
    {
      name: "SELECT INTO in an arm of a UNION",
      sql: "SELECT 1 INTO t UNION SELECT 2;",
      want: ["SELECT INTO"],
    },
    {
      name: "a DELETE inside a WITH",
      sql:
        "WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone;",
      want: ["DELETE"],
    },
    {
      name: "an INSERT inside a WITH",
      sql:
        "WITH added AS (INSERT INTO t VALUES (1) RETURNING id) SELECT count(*) FROM added;",
      want: [],
    },
    {
      name: "an INSERT into a system catalog, named or found first",
      sql:
        "INSERT INTO pg_catalog.pg_trigger SELECT * FROM pg_trigger;\nINSERT INTO pg_rewrite SELECT * FROM pg_rewrite;",
      want: ["INSERT into a system catalog", "INSERT into a system catalog"],
    },
    {
      name: "a call of a function the database has",
      sql: "SELECT dblink_exec('dbname=x', 'DROP TABLE t'), lo_unlink(1);",
      want: ["a call of dblink_exec()", "a call of lo_unlink()"],
    },
    {
      name: "a call inside a subquery of an INSERT",
      sql: "INSERT INTO t SELECT pg_catalog.pg_read_file('/etc/passwd');",
      want: ["a call of pg_catalog.pg_read_file()"],
    },
    {
      name: "SET of a setting that changes how text is read",
      sql: "SET LOCAL standard_conforming_strings TO off;",
      want: [
        "SET standard_conforming_strings (a setting changes how later statements run)",
      ],
    },
    {
      name: "SET of an allowed setting to something not constant",
      sql: "SET lock_timeout = DEFAULT;",
      want: [
        "SET lock_timeout TO DEFAULT (a setting changes how later statements run)",
      ],
    },
    {
      name: "a function in another language",
      sql:
        "CREATE FUNCTION app.f() RETURNS int LANGUAGE plperlu AS 'system(\"x\")';",
      want: ['CREATE FUNCTION in language "plperlu"'],
    },
    {
      name: "a function with its own settings",
      sql:
        "CREATE FUNCTION app.f() RETURNS int LANGUAGE sql SET search_path = evil RETURN 1;",
      want: ["CREATE FUNCTION … SET"],
    },
    {
      name: "a function whose body deletes, run later",
      sql:
        "CREATE FUNCTION app.purge() RETURNS void LANGUAGE plpgsql AS $$\nBEGIN\n  DELETE FROM accounts;\nEND $$;",
      want: ["DELETE at line 3 of the body of function app.purge"],
    },
    {
      name: "SQL run from a string, however it is written",
      sql: [
        "CREATE FUNCTION app.f() RETURNS SETOF record LANGUAGE plpgsql AS $$",
        "DECLARE r record; c refcursor;",
        "BEGIN",
        "  FOR r IN EXECUTE 'SELECT 1' LOOP END LOOP;",
        "  OPEN c FOR EXECUTE 'SELECT 1';",
        "  RETURN QUERY EXECUTE 'SELECT 1';",
        "END $$;",
      ].join("\n"),
      want: [
        "EXECUTE of a string at line 4 of the body of function app.f",
        "EXECUTE of a string at line 5 of the body of function app.f",
        "EXECUTE of a string at line 6 of the body of function app.f",
      ],
    },
    {
      name: "a SQL function's string body",
      sql: "CREATE FUNCTION app.f() RETURNS void LANGUAGE sql AS 'TRUNCATE t';",
      want: ["TRUNCATE in the body of function app.f"],
    },
    {
      name:
        "a function created harmless in a schema the deploy created, then called by its schema-qualified name",
      sql: "CREATE SCHEMA app;\n" +
        "CREATE FUNCTION app.net(x numeric) RETURNS numeric LANGUAGE sql RETURN round(x / 1.2, 2);\n" +
        "SELECT app.net(10);",
      want: [],
    },
    {
      name:
        "a function created harmless in a schema that was there: another of its name may win (overload)",
      sql:
        "CREATE FUNCTION public.dblink_exec(integer) RETURNS text LANGUAGE sql AS $$ SELECT 'ok' $$;\n" +
        "SELECT public.dblink_exec('dbname=t', 'DELETE FROM accounts');",
      want: ["a call of public.dblink_exec()"],
    },
    {
      name: "an overload created in pg_catalog trusts none of its name",
      sql:
        "CREATE FUNCTION pg_catalog.set_config(text) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n" +
        "SELECT pg_catalog.set_config('standard_conforming_strings', 'off', false);",
      want: ["a call of pg_catalog.set_config()"],
    },
    {
      name:
        "a schema created IF NOT EXISTS, or inside a body that may catch its failure, is not the deploy's own",
      sql: "CREATE SCHEMA IF NOT EXISTS public;\n" +
        "CREATE FUNCTION public.f(integer) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n" +
        "SELECT public.f(1);\n" +
        "DO $$ BEGIN CREATE SCHEMA util; EXCEPTION WHEN others THEN NULL; END $$;\n" +
        "CREATE FUNCTION util.g(integer) RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n" +
        "SELECT util.g(1);",
      want: ["a call of public.f()", "a call of util.g()"],
    },
    {
      name:
        "a schema PostgreSQL keeps for itself is never the deploy's own, though CREATE SCHEMA names it",
      sql: "CREATE SCHEMA pg_catalog;\n" +
        "CREATE FUNCTION pg_catalog.setval(a text, b bigint) RETURNS int LANGUAGE sql RETURN 0;\n" +
        "SELECT pg_catalog.setval('accounts_id_seq', 1);\n" +
        "CREATE SCHEMA information_schema;\n" +
        "CREATE FUNCTION information_schema.f(integer) RETURNS int LANGUAGE sql RETURN 1;\n" +
        "SELECT information_schema.f(1);",
      want: [
        "a call of pg_catalog.setval()",
        "a call of information_schema.f()",
      ],
    },
    {
      name:
        "a function created harmless, called unqualified (a built-in of that name could run)",
      sql:
        "CREATE FUNCTION app.net(x numeric) RETURNS numeric LANGUAGE sql RETURN x;\nSELECT net(10);",
      want: ["a call of net()"],
    },
    {
      name: "a function created with a destructive body is no harmless call",
      sql:
        "CREATE FUNCTION app.f() RETURNS int LANGUAGE sql AS 'DELETE FROM t RETURNING 1';\nSELECT app.f();",
      want: ["DELETE in the body of function app.f", "a call of app.f()"],
    },
    {
      name: "a DO block's statements and expressions",
      sql:
        "DO $$ DECLARE n int := pg_backend_pid(); BEGIN PERFORM pg_sleep(1); END $$;",
      want: [
        "a call of pg_backend_pid() at line 1 of the body of a DO block",
        "a call of pg_sleep() at line 1 of the body of a DO block",
      ],
    },
    {
      name: "DO in another language",
      sql: "DO LANGUAGE plperlu $$ system('x') $$;",
      want: ['DO in language "plperlu"'],
    },
  ];
  for (const { name, sql, want } of cases) {
    await t.step(name, async () => expect(await whats(sql)).toEqual(want));
  }
});

Deno.test("statementRefusals() refuses a write into sqitch's registry, and lets it be read", async (t) => {
  const write = (what: string, schema = "sqitch") =>
    `${what} in sqitch's registry (schema "${schema}")`;
  const cases: { name: string; sql: string; want: string[] }[] = [
    {
      name: "an INSERT into its tables",
      sql:
        "INSERT INTO sqitch.events SELECT * FROM sqitch.events;\nINSERT INTO SQITCH.changes (change) VALUES ('x');",
      want: [write("INSERT"), write("INSERT")],
    },
    {
      name: "a constraint that makes its log fail",
      sql:
        "ALTER TABLE sqitch.events ADD CONSTRAINT no_log CHECK (change <> 'x') NOT VALID;",
      want: [write("ALTER TABLE")],
    },
    {
      name: "an index, a table, a view, a type, a function, a comment in it",
      sql: [
        "CREATE INDEX ON sqitch.changes (change);",
        "CREATE TABLE sqitch.x (id int);",
        "CREATE TABLE p PARTITION OF sqitch.events DEFAULT;",
        "CREATE VIEW sqitch.v AS SELECT 1;",
        "CREATE SEQUENCE sqitch.s;",
        "CREATE TYPE sqitch.e AS ENUM ('a');",
        "CREATE FUNCTION sqitch.f() RETURNS int LANGUAGE sql RETURN 1;",
        "COMMENT ON TABLE sqitch.events IS 'x';",
      ].join("\n"),
      want: [
        write("CREATE INDEX"),
        write("CREATE TABLE"),
        write("CREATE TABLE … PARTITION OF/INHERITS"),
        write("CREATE VIEW"),
        write("CREATE SEQUENCE"),
        write("CREATE TYPE"),
        write("CREATE FUNCTION"),
        write("COMMENT ON"),
      ],
    },
    {
      name: "a view over it, which an INSERT writes through",
      sql:
        "CREATE VIEW public.ev AS SELECT * FROM sqitch.events;\nINSERT INTO public.ev SELECT * FROM sqitch.events;",
      want: [
        write("CREATE VIEW over a table (an INSERT writes through it)"),
      ],
    },
    {
      name: "a table inheriting one of its tables (read with it)",
      sql: "CREATE TABLE forged () INHERITS (sqitch.changes);",
      want: [write("CREATE TABLE … PARTITION OF/INHERITS")],
    },
    {
      name: "the registry schema made before sqitch makes it",
      sql: "CREATE SCHEMA sqitch CREATE TABLE changes (id int);",
      want: [write("CREATE SCHEMA")],
    },
    {
      name: "an INSERT in a body",
      sql: "DO $$ BEGIN INSERT INTO sqitch.events VALUES (1); END $$;",
      want: [`${write("INSERT")} at line 1 of the body of a DO block`],
    },
    {
      name: "reading it",
      sql:
        "SELECT count(*) FROM sqitch.changes;\nINSERT INTO audit SELECT change FROM sqitch.changes;",
      want: [],
    },
  ];
  for (const { name, sql, want } of cases) {
    await t.step(name, async () => expect(await whats(sql)).toEqual(want));
  }
  await t.step("the registry sqitch's configuration names", async () => {
    expect(
      await whats(
        "INSERT INTO meta.events VALUES (1);\nINSERT INTO sqitch.events VALUES (1);",
        new Set(),
        new Set(["sqitch", "meta"]),
      ),
    ).toEqual([write("INSERT", "meta"), write("INSERT")]);
  });
});

Deno.test("docs/sqitch.md lists every shape of the list with its example, and every harmless built-in", async () => {
  const docs = await Deno.readTextFile(
    new URL("../../../docs/sqitch.md", import.meta.url),
  );
  const rows = docs.split("\n").filter((line) => line.startsWith("| "));
  for (const { shape, example } of ALLOWED_SHAPES) {
    expect(
      rows.some((row) =>
        row.includes(`| ${shape} `) && row.includes(`\`${example}\``)
      ),
    ).toBe(true);
  }
  const listed = docs.replace(/\s+/g, " ");
  for (const name of HARMLESS_FUNCTIONS.keys()) {
    expect(listed).toContain(`\`${name}\``);
  }
});

// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  classifyScript,
  type Include,
  loadPgParser,
} from "../../../src/sqitch/sql/classify_script.ts";

const parser = await loadPgParser();
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Each finding as `<line>: <what>: <statement>`; includes followed with nothing. */
async function findings(
  script: string | Uint8Array,
  created = new Set<string>(),
): Promise<string[]> {
  const verdict = await classifyScript(
    typeof script === "string" ? utf8(script) : script,
    { parser, created, schemas: new Set() },
    () => Promise.resolve(),
  );
  return verdict.findings.map((f) => `${f.line}: ${f.what}: ${f.statement}`);
}

Deno.test("classifyScript() finds every instance of issue 35's first class", async (t) => {
  const cases: { name: string; script: string; want: string[] }[] = [
    {
      name: "SQL a function runs later with EXECUTE",
      script:
        "CREATE FUNCTION app.cleanup() RETURNS void LANGUAGE plpgsql AS $$\nBEGIN\n  EXECUTE 'DELETE FROM ' || 'accounts';\nEND $$;",
      want: [
        "1: EXECUTE of a string at line 3 of the body of function app.cleanup: CREATE FUNCTION app.cleanup() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'DELETE FROM ' || 'accounts'; END $$",
      ],
    },
    {
      name: "MERGE … THEN DELETE",
      script:
        "MERGE INTO accounts a USING gone g ON a.id = g.id\nWHEN MATCHED THEN DELETE;",
      want: [
        "1: MERGE: MERGE INTO accounts a USING gone g ON a.id = g.id WHEN MATCHED THEN DELETE",
      ],
    },
    {
      name: "a rule that deletes when an insert fires it",
      script:
        "CREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM accounts;\nINSERT INTO audit VALUES (1);",
      want: [
        "1: CREATE RULE: CREATE RULE wipe AS ON INSERT TO audit DO ALSO DELETE FROM accounts",
      ],
    },
    {
      name: "ON CONFLICT DO UPDATE",
      script:
        "INSERT INTO accounts (id, name) VALUES (1, '') ON CONFLICT (id) DO UPDATE SET name = excluded.name;",
      want: [
        "1: INSERT … ON CONFLICT DO UPDATE: INSERT INTO accounts (id, name) VALUES (1, '') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
      ],
    },
    {
      name: "DELETE … WHERE true",
      script: "DELETE FROM accounts WHERE true;",
      want: ["1: DELETE: DELETE FROM accounts WHERE true"],
    },
    {
      name: "DROP of a column named by an unreserved keyword",
      script:
        "ALTER TABLE accounts DROP name;\nALTER TABLE accounts DROP COLUMN type;",
      want: [
        "1: ALTER TABLE … DROP COLUMN: ALTER TABLE accounts DROP name",
        "2: ALTER TABLE … DROP COLUMN: ALTER TABLE accounts DROP COLUMN type",
      ],
    },
    {
      name:
        "a setting that changes how string literals are read, hiding a statement in one",
      script:
        "SET standard_conforming_strings = off;\nSELECT 'a\\'; DROP TABLE accounts; -- ';",
      want: [
        "1: SET standard_conforming_strings (a setting changes how later statements run): SET standard_conforming_strings = off",
        "2: DROP TABLE: DROP TABLE accounts",
      ],
    },
    {
      name: "a backtick shell inside a harmless psql command",
      script: "\\echo `psql -c 'TRUNCATE accounts'`\nSELECT 1;",
      want: [
        "1: psql \"\\\\echo\" with a backtick (psql runs it in a shell): \\echo `psql -c 'TRUNCATE accounts'`",
      ],
    },
    {
      name: "a second psql meta-command on the same line",
      script: "\\echo done \\! psql -c 'TRUNCATE accounts'",
      want: [
        "1: psql \"\\\\echo\" followed by another backslash command on its line: \\echo done \\! psql -c 'TRUNCATE accounts'",
      ],
    },
  ];
  for (const { name, script, want } of cases) {
    await t.step(
      name,
      async () => expect(await findings(script)).toEqual(want),
    );
  }
});

Deno.test("classifyScript() refuses bytes psql would read otherwise", async (t) => {
  await t.step("not UTF-8", async () => {
    expect(await findings(new Uint8Array([0x53, 0xff, 0x3b]))).toEqual([
      "1: not valid UTF-8 (psql would not read it as chant-wave does): ",
    ]);
  });
  await t.step("a NUL byte", async () => {
    expect(await findings("SELECT 1;\0DROP TABLE a;")).toEqual([
      "1: a NUL byte (psql would not read it as chant-wave does): ",
    ]);
  });
  await t.step("SQL the parser cannot read, at its line", async () => {
    expect(await findings("SELECT 1;\nSELEC 2;")).toEqual([
      '2: SQL PostgreSQL\'s parser cannot read: syntax error at or near "SELEC": SELEC 2;',
    ]);
  });
});

Deno.test("classifyScript() names a statement's line after its comments", async () => {
  expect(
    await findings("-- the cleanup\n/* gone */\n  TRUNCATE accounts;"),
  ).toEqual(["3: TRUNCATE: TRUNCATE accounts"]);
});

Deno.test("classifyScript() follows includes where psql runs them, and a function an include creates counts after it", async () => {
  const created = new Set<string>();
  const order: string[] = [];
  const follow = (include: Include) => {
    order.push(include.path);
    created.add("app.net");
    return Promise.resolve();
  };
  const verdict = await classifyScript(
    utf8("SELECT 1;\n\\i deploy/net.sql\nSELECT app.net(1);\n\\ir more.sql\n"),
    { parser, created, schemas: new Set() },
    follow,
  );
  expect(order).toEqual(["deploy/net.sql", "more.sql"]);
  expect(verdict.findings).toEqual([]);
});

Deno.test("classifyScript() reports the mark", async () => {
  const verdict = await classifyScript(
    utf8(
      "-- chant-wave: not destructive: nobody wrote a note yet\nDROP TABLE notes;",
    ),
    { parser, created: new Set(), schemas: new Set() },
    () => Promise.resolve(),
  );
  expect(verdict).toEqual({
    findings: [{ what: "DROP TABLE", line: 2, statement: "DROP TABLE notes" }],
    marked: true,
  });
});

// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { loadPgParser } from "../../../src/sqitch/sql/pg_parser.ts";
import { readPsqlScript } from "../../../src/sqitch/sql/psql_script.ts";
import { ScriptText } from "../../../src/sqitch/sql/script_text.ts";

const parser = await loadPgParser();

function read(script: string) {
  return readPsqlScript(
    new ScriptText(new TextEncoder().encode(script)),
    parser,
  );
}

/** Each finding as `<line>: <what>: <statement>`. */
function findings(script: string): string[] {
  return read(script).findings.map((f) =>
    `${f.line}: ${f.what}: ${f.statement}`
  );
}

Deno.test("readPsqlScript() leaves SQL alone, backslashes in strings and comments included", () => {
  const script = [
    "SELECT 'a\\b', E'\\\\', $$ \\i x.sql $$, \"q\\\";",
    "-- \\i y.sql",
    "/* \\! rm -rf / */",
    "SELECT x::int, 'it''s';",
  ].join("\n");
  expect(read(script)).toEqual({
    sql: script,
    includes: [],
    findings: [],
    marked: false,
    readable: true,
  });
});

Deno.test("readPsqlScript() finds includes, and blanks every meta-command line for the server", () => {
  const script =
    "\\i deploy/inc.sql\nSELECT 1;\n\\ir sub/b.sql  \n\\include_relative c.sql\n\\include d.sql";
  const got = read(script);
  expect(got.findings).toEqual([]);
  expect(got.includes).toEqual([
    { path: "deploy/inc.sql", relative: false, offset: 0, line: 1 },
    { path: "sub/b.sql", relative: true, offset: 28, line: 3 },
    { path: "c.sql", relative: true, offset: 44, line: 4 },
    { path: "d.sql", relative: false, offset: 68, line: 5 },
  ]);
  expect(got.sql).toBe(
    script.replace(/^\\.*$/gm, (line) => " ".repeat(line.length)),
  );
});

Deno.test("readPsqlScript() allows only printing meta-commands with plain arguments", async (t) => {
  const cases: { name: string; script: string; want: string[] }[] = [
    {
      name: "\\echo, \\warn, \\qecho",
      script: "\\echo it's done\n\\warn x\n\\qecho y",
      want: [],
    },
    {
      name: "a shell escape",
      script: "\\! rm -rf /",
      want: [
        '1: psql "\\\\!" (not on the list of harmless meta-commands): \\! rm -rf /',
      ],
    },
    {
      name: "a backtick in \\echo",
      script: "\\echo `psql -c 'DROP TABLE accounts'`",
      want: [
        "1: psql \"\\\\echo\" with a backtick (psql runs it in a shell): \\echo `psql -c 'DROP TABLE accounts'`",
      ],
    },
    {
      name: "a second command on the line",
      script: "\\echo hi \\\\ DELETE FROM accounts;",
      want: [
        '1: psql "\\\\echo" followed by another backslash command on its line: \\echo hi \\\\ DELETE FROM accounts;',
      ],
    },
    {
      name: "\\gexec runs what a query returns",
      script: "SELECT 'DROP TABLE a';\n\\gexec",
      want: [
        '2: psql "\\\\gexec" (not on the list of harmless meta-commands): \\gexec',
      ],
    },
    {
      name: "\\o to a pipe",
      script: "\\o |sh",
      want: [
        '1: psql "\\\\o" (not on the list of harmless meta-commands): \\o |sh',
      ],
    },
    {
      name: "a variable in \\echo",
      script: "\\echo :v",
      want: ['1: psql "\\\\echo" with a psql variable: \\echo :v'],
    },
    {
      name: "an include whose path is quoted",
      script: "\\i 'a b.sql'",
      want: [
        "1: psql \"\\\\i\" with a path that is not plain (letters, digits, _ . / -): \\i 'a b.sql'",
      ],
    },
    {
      name: "an include of stdin",
      script: "\\i -",
      want: [
        '1: psql "\\\\i" with a path that is not plain (letters, digits, _ . / -): \\i -',
      ],
    },
  ];
  for (const { name, script, want } of cases) {
    await t.step(name, () => expect(findings(script)).toEqual(want));
  }
});

Deno.test("readPsqlScript() refuses a meta-command inside a statement", async (t) => {
  await t.step("between the parts of a DELETE", () => {
    expect(findings("DELETE FROM accounts\n\\echo x\nWHERE false;")).toEqual([
      "2: a psql meta-command inside a statement (psql runs it before it sends the statement around it): \\echo x",
    ]);
  });
  await t.step("after a ; inside a BEGIN ATOMIC body", () => {
    expect(findings(
      "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1;\n\\i x.sql\nEND;",
    )).toEqual([
      "2: a psql meta-command inside a statement (psql runs it before it sends the statement around it): \\i x.sql",
    ]);
  });
  await t.step(
    "after a ; psql holds because a parameter named begin opened a block for it",
    () => {
      expect(findings(
        "CREATE FUNCTION public.id(begin int) RETURNS int LANGUAGE sql RETURN begin;\n" +
          "CREATE SCHEMA app;\n\\i check.sql\nSELECT 1 AS end;\n",
      )).toEqual([
        "3: a psql meta-command inside a statement (psql runs it before it sends the statement around it): \\i check.sql",
      ]);
    },
  );
  await t.step(
    "psql's block words count only in CREATE FUNCTION or PROCEDURE, outside parentheses",
    () => {
      for (
        const script of [
          "SELECT 1 AS begin;\n\\i a.sql\n",
          "CREATE TABLE begin (id int);\n\\i a.sql\n",
          "CREATE OR REPLACE FUNCTION f(int) RETURNS int LANGUAGE sql RETURN (SELECT CASE WHEN true THEN 1 END);\n\\i a.sql\n",
          "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;\n\\i a.sql\n",
          "create or replace procedure p() language sql begin atomic select case when true then 1 end; end;\n\\i a.sql\n",
          'CREATE FUNCTION f("begin" int) RETURNS int LANGUAGE sql RETURN 1;\n\\i a.sql\n',
        ]
      ) expect(findings(script)).toEqual([]);
      expect(findings(
        "CREATE PROCEDURE p(begin int) LANGUAGE sql BEGIN ATOMIC SELECT begin; END;\n\\i a.sql\n",
      )).toHaveLength(1);
    },
  );
  await t.step("\\g ending a statement", () => {
    expect(findings("SELECT 1 \\g")).toEqual([
      "1: a psql meta-command inside a statement (psql runs it before it sends the statement around it): \\g",
      '1: psql "\\\\g" (not on the list of harmless meta-commands): \\g',
    ]);
  });
});

Deno.test("readPsqlScript() finds every psql variable, quoted or not: its value is what runs", async (t) => {
  await t.step(
    ":'v' and :\"v\" are destructive, and blanked so the rest is judged",
    () => {
      const got = read("INSERT INTO :\"t\" VALUES (:'v');");
      expect(got.findings.map((f) => `${f.line}: ${f.what}`)).toEqual([
        "1: a psql variable (an identifier psql pastes in from its value, which chant-wave does not see)",
        "1: a psql variable (a literal psql pastes in from its value, which chant-wave does not see)",
      ]);
      expect(got.sql).toBe("INSERT INTO  \"t\" VALUES ( 'v');");
    },
  );
  await t.step(
    "a name psql pastes in is judged by its value, not its name",
    () => {
      expect(findings('SELECT :"lower"(c.content) FROM documents c;')).toEqual([
        '1: a psql variable (an identifier psql pastes in from its value, which chant-wave does not see): :"lower"(c.content) FROM documents c;',
      ]);
      expect(findings(
        "CREATE FUNCTION util.noop() RETURNS void LANGUAGE sql AS :'commit';",
      )).toEqual([
        "1: a psql variable (a literal psql pastes in from its value, which chant-wave does not see): :'commit';",
      ]);
    },
  );
  await t.step("a raw :v is pasted in as SQL", () => {
    expect(findings("SELECT 1;\nSELECT :v;")).toEqual([
      "2: a psql variable pasted in as SQL (or an array slice written without spaces: write a[1 : 2]): :v;",
    ]);
  });
  await t.step("psql's test of a variable", () => {
    expect(findings("SELECT :{?registry};")).toEqual([
      "1: a psql variable pasted in as SQL (or an array slice written without spaces: write a[1 : 2]): :{?registry};",
    ]);
  });
  await t.step("a slice written without spaces looks like one", () => {
    expect(findings("SELECT a[1:2] FROM t;")).toEqual([
      "1: a psql variable pasted in as SQL (or an array slice written without spaces: write a[1 : 2]): :2] FROM t;",
    ]);
    expect(findings("SELECT a[1 : 2], b::text FROM t;")).toEqual([]);
  });
});

Deno.test("readPsqlScript() finds the not-destructive mark in a line comment only", () => {
  expect(
    read("-- chant-wave: not destructive: empty table\nDROP TABLE a;").marked,
  )
    .toBe(true);
  expect(
    read(
      "/* chant-wave: not destructive */ SELECT '-- chant-wave: not destructive';",
    ).marked,
  )
    .toBe(false);
});

Deno.test("readPsqlScript() stops where the lexer cannot read", () => {
  const got = read("SELECT 1;\nSELECT 'abc");
  expect(got.readable).toBe(false);
  expect(got.findings).toEqual([{
    what:
      `text PostgreSQL's lexer cannot read: unterminated quoted string at or near "'abc"`,
    line: 1,
    statement: "SELECT 1;",
  }]);
});

Deno.test("readPsqlScript() finds a backtick outside strings", () => {
  expect(findings("SELECT 1 ` 2;")).toEqual([
    "1: a backtick outside strings: ` 2;",
  ]);
});

Deno.test("readPsqlScript() reads a meta-command's words as psql does: parted at ASCII spaces only", async (t) => {
  for (
    const line of [
      "\\ir x.sql\u00a0",
      "\\ir \u3000x.sql",
      "\\ir x.sql\ufeff",
      "\\i\u2002x.sql",
      "\\echo caf\u00e9",
    ]
  ) {
    await t.step(JSON.stringify(line), () => {
      const script = read(`${line}\n`);
      expect(script.includes).toEqual([]);
      expect(findings(`${line}\n`)).toHaveLength(1);
      expect(findings(`${line}\n`)[0]).toContain(
        "with a character that is not ASCII",
      );
    });
  }
  await t.step("ASCII spaces and tabs around a plain path", () => {
    expect(read("\\ir \t x.sql \t\r\n").includes.map((i) => i.path)).toEqual([
      "x.sql",
    ]);
  });
});

Deno.test("readPsqlScript() finds a vertical tab, which PostgreSQL's versions read differently, and goes on", () => {
  expect(findings("SELECT 'a\vb';\n")).toEqual([
    "1: a vertical tab (PostgreSQL 16 and later read it as a space, psql and servers before as text): b';",
  ]);
  expect(findings("SELECT E'a'\v'\\'\\ir p.sql\n';\n").at(0)).toContain(
    "a vertical tab",
  );
});

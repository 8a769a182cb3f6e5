// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { loadPgParser } from "../../../src/sqitch/sql/pg_parser.ts";

const parser = await loadPgParser();

Deno.test("loadPgParser() scans as PostgreSQL's lexer does, offsets in UTF-8 bytes", async (t) => {
  await t.step("strings, comments and a backslash outside them", () => {
    const got = parser.scan("SELECT 'é'; -- c\n\\i x.sql");
    expect(got).toEqual({
      ok: true,
      value: [
        { start: 0, end: 6, text: "SELECT", tokenName: "UNKNOWN" },
        { start: 7, end: 11, text: "'é'", tokenName: "SCONST" },
        { start: 11, end: 12, text: ";", tokenName: "ASCII_59" },
        { start: 13, end: 17, text: "-- c", tokenName: "SQL_COMMENT" },
        { start: 18, end: 19, text: "\\", tokenName: "UNKNOWN" },
        { start: 19, end: 20, text: "i", tokenName: "IDENT" },
        { start: 21, end: 22, text: "x", tokenName: "IDENT" },
        { start: 22, end: 23, text: ".", tokenName: "UNKNOWN" },
        { start: 23, end: 26, text: "sql", tokenName: "UNKNOWN" },
      ],
    });
  });
  await t.step("an unterminated string is the lexer's error", () => {
    expect(parser.scan("SELECT 'abc")).toEqual({
      ok: false,
      error: `unterminated quoted string at or near "'abc"`,
    });
  });
});

Deno.test("loadPgParser() parses statements with their byte offsets, or says where it fails", async (t) => {
  await t.step("two statements", () => {
    const got = parser.parse("SELECT 1; DELETE FROM ü;");
    expect(
      got.ok &&
        got.value.map((s) => [Object.keys(s.stmt)[0], s.location, s.length]),
    )
      .toEqual([["SelectStmt", 0, 8], ["DeleteStmt", 10, 14]]);
  });
  await t.step("a syntax error, with its offset", () => {
    expect(parser.parse("SELECT 1 \\echo")).toEqual({
      ok: false,
      error: 'syntax error at or near "\\"',
      position: 9,
    });
  });
});

Deno.test("loadPgParser() parses PL/pgSQL bodies", async (t) => {
  await t.step("a DO block's statements", () => {
    const got = parser.parsePlpgsql("DO $$BEGIN DELETE FROM t; END$$");
    expect(JSON.stringify(got)).toContain(
      '"PLpgSQL_stmt_execsql":{"lineno":1,"sqlstmt":{"PLpgSQL_expr":{"query":"DELETE FROM t"',
    );
  });
  await t.step("a body that does not parse", () => {
    const got = parser.parsePlpgsql("DO $$BEGIN x END$$");
    expect(got.ok).toBe(false);
    expect(!got.ok && got.error).toBe(
      "unexpected end of function definition at end of input",
    );
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { sqlTokens } from "../../src/sqitch/sql_tokens.ts";

/** Each token as `<kind> <text>`. */
function shown(text: string): string[] {
  return sqlTokens(text).map((token) => `${token.kind} ${token.text}`);
}

Deno.test("sqlTokens() reads literals, identifiers and comments as psql does", async (t) => {
  const cases: { name: string; text: string; want: string[] }[] = [
    {
      name: "words, punctuation and a number",
      text: "DROP TABLE a(1);",
      want: [
        "word DROP",
        "word TABLE",
        "word a",
        "punctuation (",
        "number 1",
        "punctuation )",
        "punctuation ;",
      ],
    },
    {
      name: "a string with a doubled quote",
      text: "'it''s; DROP TABLE x' y",
      want: ["string 'it''s; DROP TABLE x'", "word y"],
    },
    {
      name: "a standard string ends at its quote, backslash or not",
      text: "'a\\' DROP",
      want: ["string 'a\\'", "word DROP"],
    },
    {
      name: "an E string escapes its quote with a backslash",
      text: "E'a\\' DROP' b",
      want: ["string E'a\\' DROP'", "word b"],
    },
    {
      name: "B, X, N and U& strings",
      text: "B'01' x'ff' n'DROP' U&'d\\0061' U&\"DROP\"",
      want: [
        "string B'01'",
        "string x'ff'",
        "string n'DROP'",
        "string U&'d\\0061'",
        'quoted-identifier U&"DROP"',
      ],
    },
    {
      name: "a word ending in e is no E string",
      text: "the'x'",
      want: ["word the", "string 'x'"],
    },
    {
      name: "a quoted identifier with a doubled quote",
      text: '"drop ""table"" x" y',
      want: ['quoted-identifier "drop ""table"" x"', "word y"],
    },
    {
      name: "dollar quotes, tagged and not, and a parameter",
      text: "$$ DROP $$ $fn$ $$ DROP $fn$ $1",
      want: ["string $$ DROP $$", "string $fn$ $$ DROP $fn$", "parameter $1"],
    },
    {
      name: "a $ inside a word is part of it",
      text: "a$b$ DROP",
      want: ["word a$b$", "word DROP"],
    },
    {
      name: "line and nested block comments",
      text: "-- DROP x\n/* a /* b */ DROP */ c",
      want: [
        "line-comment  DROP x",
        "block-comment  a /* b */ DROP ",
        "word c",
      ],
    },
    {
      name: "an operator stops before a comment",
      text: "1+--x\n2",
      want: ["number 1", "operator +", "line-comment x", "number 2"],
    },
    {
      name: "casts, := and psql variables",
      text: "a::int b := :v :'lit' :\"id\" :",
      want: [
        "word a",
        "operator ::",
        "word int",
        "word b",
        "operator :=",
        "variable :v",
        "variable :'lit'",
        'variable :"id"',
        "punctuation :",
      ],
    },
    {
      name: "a meta-command runs to the end of its line",
      text: "\\i other.sql\nSELECT 1",
      want: ["meta-command \\i other.sql", "word SELECT", "number 1"],
    },
    {
      name: "what is left open runs to the end",
      text: "SELECT 'DROP TABLE x; /* $$",
      want: ["word SELECT", "string 'DROP TABLE x; /* $$"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => expect(shown(c.text)).toEqual(c.want));
  }
});

Deno.test("sqlTokens() gives each token the line it starts on", () => {
  const tokens = sqlTokens("a\n'x\ny'\n/*\n*/ b -- c\n$$\n$$ d");
  expect(tokens.map((token) => [token.kind, token.line])).toEqual([
    ["word", 1],
    ["string", 2],
    ["block-comment", 4],
    ["word", 5],
    ["line-comment", 5],
    ["string", 6],
    ["word", 7],
  ]);
});

Deno.test("sqlTokens() names words in upper case, meta-commands and variables by name", () => {
  const [word, meta, continued, variable, quoted] = sqlTokens(
    "drop\n\\Include x\n\\echo a \\\\ DROP TABLE x\n:name :'name'",
  );
  expect(word.name).toBe("DROP");
  expect([meta.name, meta.continued]).toEqual(["include", undefined]);
  expect([continued.name, continued.continued]).toEqual(["echo", true]);
  expect([variable.name, variable.quoted]).toEqual(["name", undefined]);
  expect([quoted.name, quoted.quoted]).toEqual(["name", true]);
});

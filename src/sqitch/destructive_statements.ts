/**
 * Finds the statements of a PostgreSQL deploy script that destroy or rewrite
 * data, from its tokens (never from its raw text, so a `DROP` in a comment, a
 * string, a dollar-quoted body or a quoted identifier does not count): `DROP`,
 * `TRUNCATE`, `DELETE` or `UPDATE` without a `WHERE`, `ALTER … TYPE`,
 * `ALTER … DROP` (a column, an attribute), renames, and what it cannot see
 * into (a `DO` block, psql meta-commands that run other files or query output,
 * raw psql variables, a changed `standard_conforming_strings`). It also finds
 * the script's `-- chant-wave: not destructive` mark; whether the mark counts
 * is the caller's. Pure.
 * @module
 */

import { type SqlToken, sqlTokens } from "./sql_tokens.ts";

/** One destructive statement. */
export interface Finding {
  /** What it is: `DROP TABLE`, `DELETE without WHERE`, `ALTER TABLE … RENAME`. */
  what: string;
  /** The 1-based line it starts on. */
  line: number;
}

/** What a script destroys, and whether it says it does not. */
export interface ScriptVerdict {
  /** Its destructive statements, in script order. */
  findings: Finding[];
  /** It holds a `-- chant-wave: not destructive` line comment. */
  marked: boolean;
}

/** The mark, as the text of a line comment (after `--`), with an optional reason. */
const MARK = /^\s*chant-wave: not destructive(?:$|[\s:;,.(-])/;

/** psql meta-commands that neither run SQL nor read other files. */
const HARMLESS_META = new Set([
  "set",
  "unset",
  "echo",
  "qecho",
  "warn",
  "pset",
  "timing",
  "encoding",
  "if",
  "elif",
  "else",
  "endif",
  "conninfo",
  "q",
]);

/** After these a `DELETE` or `UPDATE` is a statement of its own, not a keyword of another. */
const BEFORE_VERB = new Set(["AS", "ANALYZE", "ANALYSE", "VERBOSE"]);

/** Words after `DROP` that name a kind of object in two words. */
const TWO_WORD_KINDS = new Set([
  "MATERIALIZED",
  "FOREIGN",
  "TEXT",
  "ACCESS",
  "EVENT",
  "OPERATOR",
  "USER",
]);

/** What `ALTER … DROP` may drop without losing data. */
const HARMLESS_ALTER_DROP = new Set([
  "DEFAULT",
  "NOT",
  "EXPRESSION",
  "IDENTITY",
  "CONSTRAINT",
]);

/** A statement's tokens, each with its parenthesis depth inside the statement. */
interface Statement {
  tokens: SqlToken[];
  depths: number[];
}

/**
 * Finds a script's destructive statements and its not-destructive mark.
 * @param script The deploy script's text.
 * @returns The findings, in order, and whether the script is marked.
 * @example
 * ```ts
 * destructiveStatements("-- DROP TABLE a\nSELECT 'DROP TABLE b';\nDROP INDEX c;");
 * // { findings: [{ what: "DROP INDEX", line: 3 }], marked: false }
 * ```
 */
export function destructiveStatements(script: string): ScriptVerdict {
  const tokens = sqlTokens(script);
  const findings: Finding[] = [];
  let marked = false;
  const code: SqlToken[] = [];
  for (const token of tokens) {
    if (token.kind === "line-comment") {
      marked ||= MARK.test(token.text);
    } else if (token.kind !== "block-comment") code.push(token);
  }
  for (const token of code) findings.push(...tokenFindings(token));
  for (const statement of statementsOf(code)) {
    findings.push(...statementFindings(statement));
  }
  findings.sort((a, b) => a.line - b.line);
  return { findings, marked };
}

/** What single tokens give away: meta-commands, raw variables, the string setting. */
function tokenFindings(token: SqlToken): Finding[] {
  const { line } = token;
  if (token.kind === "meta-command") {
    const name = `psql \\${token.name}`;
    if (token.continued) {
      return [{ what: `${name} followed by \\\\ (SQL after it)`, line }];
    }
    return HARMLESS_META.has(token.name ?? "")
      ? []
      : [{ what: `${name} (not analysed)`, line }];
  }
  if (token.kind === "variable" && !token.quoted) {
    return [{ what: `psql variable :${token.name} (not analysed)`, line }];
  }
  if (
    (token.kind === "word" || token.kind === "string" ||
      token.kind === "quoted-identifier") &&
    /standard_conforming_strings/i.test(token.text)
  ) {
    return [{
      what: "standard_conforming_strings (changes how strings are read)",
      line,
    }];
  }
  return [];
}

/** Splits code at `;` outside parentheses, and at meta-commands (psql sends there). */
function statementsOf(code: readonly SqlToken[]): Statement[] {
  const statements: Statement[] = [];
  let current: Statement = { tokens: [], depths: [] };
  let depth = 0;
  const end = () => {
    if (current.tokens.length) statements.push(current);
    current = { tokens: [], depths: [] };
    depth = 0;
  };
  for (const token of code) {
    if (token.kind === "meta-command") {
      end();
      continue;
    }
    if (token.kind === "punctuation" && token.text === ";" && depth === 0) {
      end();
      continue;
    }
    if (token.kind === "punctuation" && token.text === ")") {
      depth = Math.max(0, depth - 1);
    }
    current.tokens.push(token);
    current.depths.push(depth);
    if (token.kind === "punctuation" && token.text === "(") depth++;
  }
  end();
  return statements;
}

/** The upper-case word of a token, or undefined for anything else. */
function wordOf(token: SqlToken | undefined): string | undefined {
  return token?.kind === "word" ? token.name : undefined;
}

function statementFindings(statement: Statement): Finding[] {
  const { tokens } = statement;
  const first = tokens[0];
  const verb = wordOf(first);
  const findings: Finding[] = [];
  if (verb === "DROP") {
    findings.push({
      what: `DROP ${kindAfter(tokens, 1)}`.trim(),
      line: first.line,
    });
  } else if (verb === "TRUNCATE") {
    findings.push({ what: "TRUNCATE", line: first.line });
  } else if (verb === "DO") {
    findings.push({
      what: "DO block (runs code that is not analysed)",
      line: first.line,
    });
  } else if (verb === "ALTER") findings.push(...alterFindings(statement));
  findings.push(...unboundedWrites(statement));
  return findings;
}

/** A keyword-like word (ASCII letters and `_`): only such words are echoed in findings. */
function keywordOf(token: SqlToken | undefined): string | undefined {
  const word = wordOf(token);
  return word !== undefined && /^[A-Z_]+$/.test(word) ? word : undefined;
}

/** The kind of object named from `at` on: `TABLE`, `MATERIALIZED VIEW`. */
function kindAfter(tokens: readonly SqlToken[], at: number): string {
  const one = keywordOf(tokens[at]);
  if (one === undefined) return "";
  const two = keywordOf(tokens[at + 1]);
  return TWO_WORD_KINDS.has(one) && two !== undefined ? `${one} ${two}` : one;
}

/** `ALTER … RENAME`, `ALTER … TYPE` (a column's type), `ALTER … DROP <column>`. */
function alterFindings({ tokens, depths }: Statement): Finding[] {
  const kind = kindAfter(tokens, 1);
  const label = `ALTER ${kind}`.trim();
  const findings: Finding[] = [];
  for (let i = 2; i < tokens.length; i++) {
    if (depths[i] !== 0) continue;
    const word = wordOf(tokens[i]);
    const before = wordOf(tokens[i - 1]);
    const { line } = tokens[i];
    if (word === "RENAME" && before !== "COLUMN" && before !== "ADD") {
      findings.push({ what: `${label} … RENAME`, line });
    } else if (word === "TYPE" && changesType(tokens, i)) {
      findings.push({ what: `${label} … TYPE`, line });
    } else if (word === "DROP" && before !== "COLUMN") {
      const next = wordOf(tokens[i + 1]);
      if (next !== undefined && HARMLESS_ALTER_DROP.has(next)) continue;
      const what = kind.endsWith("TABLE")
        ? "COLUMN"
        : keywordOf(tokens[i + 1]) ?? "";
      findings.push({ what: `${label} … DROP ${what}`.trim(), line });
    }
  }
  return findings;
}

/**
 * Whether the `TYPE` at `i` changes a column's or attribute's type: `SET DATA
 * TYPE`, or `ALTER [COLUMN|ATTRIBUTE] <name> TYPE` (not a column named "type").
 */
function changesType(tokens: readonly SqlToken[], i: number): boolean {
  const before = wordOf(tokens[i - 1]);
  if (before === "DATA") return true;
  if (before === "ALTER" || before === "COLUMN" || before === "ATTRIBUTE") {
    return false;
  }
  const twoBefore = wordOf(tokens[i - 2]);
  return twoBefore === "ALTER" || twoBefore === "COLUMN" ||
    twoBefore === "ATTRIBUTE";
}

/**
 * `DELETE` and `UPDATE` statements (at the start, after `WITH …)`, inside a
 * parenthesis, after `AS` or `EXPLAIN ANALYZE`) with no `WHERE` at their own
 * depth before they end.
 */
function unboundedWrites({ tokens, depths }: Statement): Finding[] {
  const findings: Finding[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const word = wordOf(tokens[i]);
    if (word !== "DELETE" && word !== "UPDATE") continue;
    if (i > 0 && !startsStatement(tokens[i - 1])) continue;
    const depth = depths[i];
    let bounded = false;
    for (let j = i + 1; j < tokens.length && depths[j] >= depth; j++) {
      if (depths[j] === depth && wordOf(tokens[j]) === "WHERE") {
        bounded = true;
        break;
      }
    }
    if (!bounded) {
      findings.push({ what: `${word} without WHERE`, line: tokens[i].line });
    }
  }
  return findings;
}

/** Whether a `DELETE` or `UPDATE` after `token` starts a statement. */
function startsStatement(token: SqlToken): boolean {
  if (token.kind === "punctuation") {
    return token.text === "(" || token.text === ")";
  }
  return BEFORE_VERB.has(wordOf(token) ?? "");
}

/**
 * Follows the code a function, procedure or `DO` block runs: a PL/pgSQL body
 * through PostgreSQL's PL/pgSQL parser (every SQL statement and expression it
 * runs, handed to the statement rules), a SQL body statement by statement.
 * Fails closed: `EXECUTE` of a built string (and `FOR … IN EXECUTE`, `OPEN …
 * FOR EXECUTE`, `RETURN QUERY EXECUTE`) and any PL/pgSQL statement it does not
 * know are refused. Which statements are allowed is the caller's
 * (`allowed_statements.ts`), given as a {@linkcode BodyReader}. Pure.
 * @module
 */

import type { PgNode, PgParser, ScanToken } from "./pg_parser.ts";
import { decodeUtf8 } from "./script_text.ts";

/** The statement rules, as a body needs them. */
export interface BodyReader {
  parser: PgParser;
  /**
   * Judges text of whole SQL statements.
   * @returns Why they are not on the list (none: they are).
   */
  statements(text: string): string[];
  /**
   * Judges one parsed statement (of a `BEGIN ATOMIC` body).
   * @returns Why it is not on the list (none: it is).
   */
  node(statement: PgNode): string[];
}

/** PL/pgSQL statements whose only code is in their expressions. */
const PLPGSQL_STATEMENTS = new Set([
  "PLpgSQL_stmt_assert",
  "PLpgSQL_stmt_assign",
  "PLpgSQL_stmt_block",
  "PLpgSQL_stmt_call",
  "PLpgSQL_stmt_case",
  "PLpgSQL_stmt_close",
  "PLpgSQL_stmt_commit",
  "PLpgSQL_stmt_execsql",
  "PLpgSQL_stmt_exit",
  "PLpgSQL_stmt_fetch",
  "PLpgSQL_stmt_forc",
  "PLpgSQL_stmt_foreach_a",
  "PLpgSQL_stmt_fori",
  "PLpgSQL_stmt_fors",
  "PLpgSQL_stmt_getdiag",
  "PLpgSQL_stmt_if",
  "PLpgSQL_stmt_loop",
  "PLpgSQL_stmt_open",
  "PLpgSQL_stmt_perform",
  "PLpgSQL_stmt_raise",
  "PLpgSQL_stmt_return",
  "PLpgSQL_stmt_return_next",
  "PLpgSQL_stmt_return_query",
  "PLpgSQL_stmt_rollback",
  "PLpgSQL_stmt_while",
]);

/** PL/pgSQL statements that run a string as SQL. */
const DYNAMIC_STATEMENTS = new Set([
  "PLpgSQL_stmt_dynexecute",
  "PLpgSQL_stmt_dynfors",
]);

/** How PL/pgSQL reads an expression's text (PostgreSQL's `RawParseMode`). */
const STATEMENT_MODE = 0;
const EXPRESSION_MODE = 2;
const ASSIGNMENT_MODES = [3, 4, 5];

/**
 * Follows a PL/pgSQL body.
 * @param text The whole `CREATE FUNCTION`, `CREATE PROCEDURE` or `DO` statement.
 * @param who What the body is of, for messages: `function billing.net`, `a DO block`.
 * @param reader The statement rules.
 * @returns Why its code is not on the list, each naming the body's line
 *   (`DELETE at line 3 of the body of function app.f`); none when all of it is.
 */
export function plpgsqlRefusals(
  text: string,
  who: string,
  reader: BodyReader,
): string[] {
  const parsed = reader.parser.parsePlpgsql(text);
  if (!parsed.ok) {
    return [
      `a body PostgreSQL's PL/pgSQL parser cannot read (${
        parsed.error.slice(0, 80)
      }) in ${who}`,
    ];
  }
  const refusals: string[] = [];
  const walk = (value: unknown, line: number): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, line);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const at = typeof (inner as { lineno?: unknown })?.lineno === "number"
        ? (inner as { lineno: number }).lineno
        : line;
      const where = at > 0
        ? ` at line ${at} of the body of ${who}`
        : ` in the body of ${who}`;
      if (DYNAMIC_STATEMENTS.has(key) || key === "dynquery") {
        refusals.push(`EXECUTE of a string${where}`);
      } else if (
        key.startsWith("PLpgSQL_stmt_") && !PLPGSQL_STATEMENTS.has(key)
      ) {
        refusals.push(`the PL/pgSQL statement ${key.slice(13)}${where}`);
      } else if (key === "PLpgSQL_expr") {
        for (const why of expressionRefusals(inner as PgNode, reader)) {
          refusals.push(`${why}${where}`);
        }
      } else walk(inner, at);
    }
  };
  walk(parsed.value, 0);
  return refusals;
}

/** Judges one PL/pgSQL expression or SQL statement by how PL/pgSQL reads it. */
function expressionRefusals(expr: PgNode, reader: BodyReader): string[] {
  const query = typeof expr.query === "string" ? expr.query : "";
  const mode = typeof expr.parseMode === "number" ? expr.parseMode : 0;
  if (mode === STATEMENT_MODE) return reader.statements(query);
  if (mode === EXPRESSION_MODE) return reader.statements(`SELECT ${query}`);
  if (ASSIGNMENT_MODES.includes(mode)) {
    const split = assignmentSplit(query, reader.parser);
    if (split === undefined) {
      return [`an assignment chant-wave cannot read: ${query.slice(0, 60)}`];
    }
    return reader.statements(`SELECT ${split.target}, ${split.value}`);
  }
  return [`a PL/pgSQL expression chant-wave does not read (mode ${mode})`];
}

/** `target := value` (or `=`) split at its operator, outside brackets. */
function assignmentSplit(
  query: string,
  parser: PgParser,
): { target: string; value: string } | undefined {
  const scanned = parser.scan(query);
  if (!scanned.ok) return undefined;
  let depth = 0;
  const bytes = new TextEncoder().encode(query);
  const decode = (from: number, to?: number) =>
    decodeUtf8(bytes.subarray(from, to));
  const operator = scanned.value.find((token: ScanToken) => {
    if (token.text === "(" || token.text === "[") depth++;
    if (token.text === ")" || token.text === "]") depth--;
    return depth === 0 && (token.text === ":=" || token.text === "=");
  });
  if (operator === undefined) return undefined;
  return {
    target: decode(0, operator.start),
    value: decode(operator.end),
  };
}

/**
 * Follows a SQL body: a `BEGIN ATOMIC … END` or `RETURN` body the parser
 * parsed with the statement, else the body's string.
 * @param sqlBody The statement's `sql_body` field, if any.
 * @param body The body's string, if any.
 * @param who What the body is of, for messages: `function billing.net`.
 * @param reader The statement rules.
 * @returns Why its statements are not on the list; none when all of them are.
 */
export function sqlBodyRefusals(
  sqlBody: unknown,
  body: string | undefined,
  who: string,
  reader: BodyReader,
): string[] {
  if (sqlBody === undefined) {
    return body === undefined
      ? [`${who} without a body`]
      : reader.statements(body).map((why) => `${why} in the body of ${who}`);
  }
  const refusals: string[] = [];
  const statements = (value: unknown): void => {
    const node = value as PgNode;
    const list = (node as { List?: { items?: unknown[] } }).List;
    if (list) {
      for (const item of list.items ?? []) statements(item);
    } else {
      for (const why of reader.node(node)) {
        refusals.push(`${why} in the body of ${who}`);
      }
    }
  };
  statements(sqlBody);
  return refusals;
}

/**
 * Judges one psql script as psql and the server read it: bytes that are not
 * UTF-8 (or hold a NUL) are destructive; psql's level (meta-commands,
 * variables) is `psql_script.ts`'s; the SQL it sends is parsed by PostgreSQL's
 * parser (text it cannot parse is destructive) and every statement is judged
 * against the allow-list (`allowed_statements.ts`), in the order psql runs
 * them, includes handed to the caller at their place. The public face of
 * `sqitch/sql/`; reading files is the caller's.
 * @module
 */

import {
  ALLOWED_SHAPES,
  type AllowedShape,
  type JudgeContext,
  statementRefusals,
} from "./allowed_statements.ts";
import { type Include, readPsqlScript } from "./psql_script.ts";
import {
  decodeUtf8,
  type Finding,
  ScriptText,
  unreadableBytes,
} from "./script_text.ts";

export { ALLOWED_SHAPES, type AllowedShape, type Finding, type Include };
export type { JudgeContext } from "./allowed_statements.ts";
export { loadPgParser, type PgParser } from "./pg_parser.ts";
export {
  INCLUDE_META_COMMANDS,
  PRINTING_META_COMMANDS,
  RELATIVE_INCLUDE_META_COMMANDS,
} from "./psql_script.ts";
export { HARMLESS_FUNCTIONS } from "./harmless_functions.ts";

/** What a script does, as judged. */
export interface ScriptVerdict {
  /** Why it is destructive, in the order psql runs it (none: it is not). */
  findings: Finding[];
  /** A line comment `-- chant-wave: not destructive` is in it. */
  marked: boolean;
}

/** Comments and whitespace before a statement's first word. */
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

/**
 * Judges a script. Includes are handed to `follow` in the order psql runs
 * them, between the statements around them, whatever the rest of the script
 * is (the caller digests and judges every file a deploy runs).
 * @param bytes The script's bytes.
 * @param context PostgreSQL's parser and the functions created so far in the
 *   deploy (judging adds the ones this script creates harmlessly).
 * @param follow Reads and judges an include (called at most once per include, in order).
 * @returns The findings and the mark.
 * @example
 * ```ts
 * const verdict = await classifyScript(utf8("DELETE FROM t WHERE true;"), context, follow);
 * verdict.findings; // [{ what: "DELETE", line: 1, statement: "DELETE FROM t WHERE true" }]
 * ```
 */
export async function classifyScript(
  bytes: Uint8Array,
  context: JudgeContext,
  follow: (include: Include) => Promise<void>,
): Promise<ScriptVerdict> {
  const unreadable = unreadableBytes(bytes);
  if (unreadable !== undefined) {
    return {
      findings: [{
        what: `${unreadable} (psql would not read it as chant-wave does)`,
        line: 1,
        statement: "",
      }],
      marked: false,
    };
  }
  const text = new ScriptText(bytes);
  const psql = readPsqlScript(text, context.parser);
  const findings = [...psql.findings];
  const steps: { offset: number; run: () => Promise<void> | void }[] = psql
    .includes.map((include) => ({
      offset: include.offset,
      run: () => follow(include),
    }));
  if (psql.readable) {
    const sql = new TextEncoder().encode(psql.sql);
    const parsed = context.parser.parse(psql.sql);
    if (!parsed.ok) {
      const at = parsed.position ?? 0;
      findings.push(text.findingAt(
        `SQL PostgreSQL's parser cannot read: ${parsed.error.slice(0, 80)}`,
        at,
      ));
    } else {
      for (const raw of parsed.value) {
        const end = raw.length === undefined
          ? sql.length
          : raw.location + raw.length;
        const own = decodeUtf8(sql.subarray(raw.location, end));
        const start = raw.location +
          new TextEncoder().encode(LEADING.exec(own)![0]).length;
        steps.push({
          offset: start,
          run: () => {
            for (const why of statementRefusals(raw.stmt, own, context)) {
              findings.push(text.findingAt(why, start, end));
            }
          },
        });
      }
    }
  }
  steps.sort((a, b) => a.offset - b.offset);
  for (const step of steps) await step.run();
  findings.sort((a, b) => a.line - b.line);
  return { findings, marked: psql.marked };
}

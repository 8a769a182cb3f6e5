/**
 * Reads a script as psql does before the server sees it, with PostgreSQL's own
 * lexer (never a tokenizer of chant-wave's): a backslash outside strings and
 * comments starts a psql meta-command that runs to the end of its line; a
 * `:name` outside them is a psql variable psql pastes in. What psql would do
 * there is judged here, failing closed: only a tiny list of meta-commands is
 * harmless (`\echo`, `\warn`, `\qecho` with plain arguments), `\i`, `\ir`,
 * `\include` and `\include_relative` with a plain path are includes the caller
 * follows. A psql variable is destructive in every form (`:name`, `:'name'`,
 * `:"name"`, `:{?name}`): what psql pastes in is its value, which chant-wave
 * does not see (psql sets some itself, sqitch sets `registry`), so judging the
 * name would judge the wrong text. Everything else found is destructive too.
 * A meta-command runs when psql reads it, before the statement psql is still
 * gathering is sent; so one is harmless only where psql's buffer holds no
 * statement, which is judged by psql's own rule for where a statement ends
 * (`PsqlBuffer`: a `;` outside parentheses, and outside what psql takes for a
 * `BEGIN … END` block of a `CREATE FUNCTION` or `CREATE PROCEDURE`), never by
 * the server's. It returns the text the server is sent (the meta-command lines
 * and the colons of quoted variables blanked, so byte offsets stay the
 * script's and the rest is still judged) for the statement rules
 * (`allowed_statements.ts`). Pure.
 * @module
 */

import { hasControlCharacter } from "../../console/visible.ts";
import type { PgParser, ScanToken } from "./pg_parser.ts";
import {
  decodeUtf8,
  excerptOf,
  type Finding,
  type ScriptText,
} from "./script_text.ts";

/** A psql include: `\i` (relative to psql's directory) or `\ir` (to the including file's). */
export interface Include {
  /** The path as written. */
  path: string;
  /** `\ir` or `\include_relative`: relative to the including file's directory. */
  relative: boolean;
  /** The byte offset of its backslash. */
  offset: number;
  /** Its 1-based line. */
  line: number;
}

/** A script as psql hands it to the server. */
export interface PsqlScript {
  /** The text the server is sent: meta-command lines and the colons of quoted variables blanked; the script's byte offsets. */
  sql: string;
  /** The includes, in order. */
  includes: Include[];
  /** What makes the script destructive at psql's level, in order. */
  findings: Finding[];
  /** A line comment `-- chant-wave: not destructive` is in it. */
  marked: boolean;
  /** False when the lexer could not read it to the end: `sql` is then not to be judged (a finding says why). */
  readable: boolean;
}

/** Meta-commands that only print their plain arguments. */
export const PRINTING_META_COMMANDS = ["echo", "warn", "qecho"] as const;
/** Meta-commands that run another file, relative to psql's directory. */
export const INCLUDE_META_COMMANDS = ["i", "include"] as const;
/** Meta-commands that run another file, relative to the including file. */
export const RELATIVE_INCLUDE_META_COMMANDS = [
  "ir",
  "include_relative",
] as const;

/** A vertical tab: a space to PostgreSQL 16 and later, text to psql and servers before. */
const VERTICAL_TAB = 0x0b;
/** The most meta-commands one script may hold. */
const MAX_META_COMMANDS = 256;
/** How many backslashes are tried when the lexer fails on the rest of a script. */
const MAX_BACKSLASH_TRIES = 64;
/** The mark, as the text of a line comment, with an optional reason. */
const MARK = /^--\s*chant-wave: not destructive(?:$|[\s:;,.(-])/;
/** A psql variable name (psql takes letters, digits, `_` and non-ASCII). */
const VARIABLE_NAME = /^[A-Za-z0-9_\u0080-\uffff]+$/;
/** What can start a variable's name right after a colon. */
const VARIABLE_START = /^[A-Za-z0-9_\u0080-\uffff]/;
/** A path psql reads without quoting or variables. */
const PLAIN_PATH = /^[A-Za-z0-9_.][A-Za-z0-9_./-]*$/;

/**
 * Reads a script as psql does: its meta-commands, its variables, its mark, and
 * the text the server is sent.
 * @param text The script (valid UTF-8, no NUL).
 * @param parser PostgreSQL's lexer and parser.
 * @returns What psql does with it.
 * @example
 * ```ts
 * readPsqlScript(new ScriptText(utf8("\\i inc.sql\nSELECT :'v';")), parser).includes;
 * // [{ path: "inc.sql", relative: false, offset: 0, line: 1 }]
 * ```
 */
export function readPsqlScript(text: ScriptText, parser: PgParser): PsqlScript {
  const blank = text.bytes.slice();
  const script: PsqlScript = {
    sql: "",
    includes: [],
    findings: [],
    marked: false,
    readable: true,
  };
  const tab = text.bytes.indexOf(VERTICAL_TAB);
  if (tab >= 0) {
    script.findings.push(text.findingAt(
      "a vertical tab (PostgreSQL 16 and later read it as a space, psql and servers before as text)",
      tab,
    ));
  }
  let pos = 0;
  let metaCommands = 0;
  const buffer = new PsqlBuffer();
  while (pos < blank.length) {
    const segment = blank.subarray(pos);
    const lexed = lexToBackslash(decodeUtf8(segment), segment, parser);
    if (lexed === undefined) {
      const scanned = parser.scan(decodeUtf8(segment));
      const error = scanned.ok ? "" : `: ${excerptOf(scanned.error)}`;
      script.findings.push(
        text.findingAt(`text PostgreSQL's lexer cannot read${error}`, pos),
      );
      script.readable = false;
      break;
    }
    readTokens(lexed.tokens, pos, text, blank, script);
    for (const token of lexed.tokens) buffer.take(token);
    if (lexed.backslash === undefined) break;
    const at = pos + lexed.backslash;
    const end = text.lineEnd(at);
    if (++metaCommands > MAX_META_COMMANDS) {
      script.findings.push(
        text.findingAt(`more than ${MAX_META_COMMANDS} psql meta-commands`, at),
      );
      script.readable = false;
      break;
    }
    if (
      buffer.holdsStatement ||
      !atStatementBoundary(lexed.tokens, blank.subarray(pos, at), parser)
    ) {
      script.findings.push(text.findingAt(
        "a psql meta-command inside a statement (psql runs it before it sends the statement around it)",
        at,
      ));
    }
    readMetaCommand(text, at, end, script);
    blank.fill(32, at, end);
    pos = end + 1;
  }
  script.sql = decodeUtf8(blank);
  return script;
}

/** The lexer's tokens up to the first backslash outside strings and comments, and its offset. */
interface Lexed {
  tokens: ScanToken[];
  backslash?: number;
}

/**
 * Lexes text up to its first meta-command. When the lexer fails on the whole
 * rest (a meta-command's arguments may hold what SQL cannot: a lone quote),
 * each backslash in turn is tried: one is a meta-command when the text up to
 * and including it lexes, ending with it as a token of its own.
 * @returns The tokens before the backslash and its offset; all the tokens and
 *   no offset when there is none; undefined when the text cannot be lexed.
 */
function lexToBackslash(
  text: string,
  bytes: Uint8Array,
  parser: PgParser,
): Lexed | undefined {
  const scanned = parser.scan(text);
  if (scanned.ok) {
    const at = scanned.value.findIndex((token) => token.text === "\\");
    return at < 0 ? { tokens: scanned.value } : {
      tokens: scanned.value.slice(0, at),
      backslash: scanned.value[at].start,
    };
  }
  let from = 0;
  for (let tries = 0; tries < MAX_BACKSLASH_TRIES; tries++) {
    const at = bytes.indexOf(92, from);
    if (at < 0) return undefined;
    const prefix = parser.scan(decodeUtf8(bytes.subarray(0, at + 1)));
    const last = prefix.ok ? prefix.value[prefix.value.length - 1] : undefined;
    if (prefix.ok && last?.text === "\\" && last.start === at) {
      return { tokens: prefix.value.slice(0, -1), backslash: at };
    }
    from = at + 1;
  }
  return undefined;
}

/** Reads the tokens of SQL text: the mark, backticks, and psql variables. */
function readTokens(
  tokens: readonly ScanToken[],
  pos: number,
  text: ScriptText,
  blank: Uint8Array,
  script: PsqlScript,
): void {
  tokens.forEach((token, i) => {
    if (token.tokenName === "SQL_COMMENT") {
      script.marked ||= MARK.test(token.text);
      return;
    }
    if (token.tokenName === "C_COMMENT" || token.tokenName === "SCONST") return;
    if (token.text.includes("`") && !token.text.startsWith('"')) {
      script.findings.push(
        text.findingAt("a backtick outside strings", pos + token.start),
      );
    }
    const next = tokens[i + 1];
    if (token.text !== ":" || next === undefined || next.start !== token.end) {
      return;
    }
    const quoted = /^(['"])(.*)\1$/s.exec(next.text);
    if (
      quoted && VARIABLE_NAME.test(quoted[2]) &&
      (quoted[1] === '"'
        ? next.tokenName === "IDENT"
        : next.tokenName === "SCONST")
    ) {
      blank[pos + token.start] = 32;
      script.findings.push(text.findingAt(
        `a psql variable (${
          quoted[1] === '"' ? "an identifier" : "a literal"
        } psql pastes in from its value, which chant-wave does not see)`,
        pos + token.start,
      ));
    } else if (next.text.startsWith("{") || VARIABLE_START.test(next.text)) {
      script.findings.push(text.findingAt(
        "a psql variable pasted in as SQL (or an array slice written without spaces: write a[1 : 2])",
        pos + token.start,
      ));
    }
  });
}

/**
 * Whether a meta-command at the end of `before` stands between statements:
 * the SQL before it (from the previous meta-command) ends with `;` outside
 * any parenthesis or body, or is empty.
 */
function atStatementBoundary(
  tokens: readonly ScanToken[],
  before: Uint8Array,
  parser: PgParser,
): boolean {
  const code = tokens.filter((token) =>
    token.tokenName !== "SQL_COMMENT" && token.tokenName !== "C_COMMENT"
  );
  if (code.length === 0) return true;
  return code[code.length - 1].text === ";" &&
    parser.parse(decodeUtf8(before)).ok;
}

/** A word psql's lexer takes for an identifier (a keyword too): unquoted. */
const PSQL_IDENTIFIER = /^[A-Za-z_\u0080-\uffff][A-Za-z_0-9$\u0080-\uffff]*$/;
/** The words psql notes at a statement's start, by their first letter. */
const NOTED_WORDS = new Set([
  "create",
  "function",
  "procedure",
  "or",
  "replace",
]);

/**
 * What psql's buffer holds, token by token, by psql's own rule for where a
 * statement ends (its lexer, `psqlscan.l`): a `;` ends one only outside
 * parentheses and outside a `BEGIN … END` block, and psql counts such blocks
 * only in a statement that starts `CREATE [OR REPLACE] FUNCTION` or
 * `PROCEDURE`, by the words `begin`, `case` (within a block) and `end` written
 * unquoted outside parentheses, whatever they mean there (a parameter named
 * `begin` opens a block for psql). Comments never make a statement.
 */
export class PsqlBuffer {
  #parens = 0;
  #blocks = 0;
  #words = 0;
  #noted: string[] = [];
  #statement = false;

  /** Whether psql holds part of a statement it has not sent yet. */
  get holdsStatement(): boolean {
    return this.#statement;
  }

  /**
   * Takes the next token of the script, as PostgreSQL's lexer gave it.
   * @param token The token.
   */
  take(token: ScanToken): void {
    if (token.tokenName === "SQL_COMMENT" || token.tokenName === "C_COMMENT") {
      return;
    }
    const text = token.text;
    if (text === ";" && this.#parens === 0 && this.#blocks === 0) {
      this.#statement = false;
      this.#words = 0;
      return;
    }
    this.#statement = true;
    if (text === "(") this.#parens++;
    else if (text === ")") this.#parens = Math.max(0, this.#parens - 1);
    else if (PSQL_IDENTIFIER.test(text)) {
      // As psql compares them: ASCII letters only, whatever their case.
      this.#word(text.replace(/[A-Z]/g, (c) => c.toLowerCase()));
    }
  }

  #word(word: string): void {
    if (this.#words === 0) this.#noted = [];
    if (NOTED_WORDS.has(word) && this.#words < 4) {
      this.#noted[this.#words] = word[0];
    }
    this.#words++;
    const [first, second, third, fourth] = this.#noted;
    const routine = first === "c" &&
      (second === "f" || second === "p" ||
        (second === "o" && third === "r" &&
          (fourth === "f" || fourth === "p")));
    if (!routine || this.#parens > 0) return;
    if (word === "begin") this.#blocks++;
    else if (word === "case" && this.#blocks > 0) this.#blocks++;
    else if (word === "end" && this.#blocks > 0) this.#blocks--;
  }
}

/** Judges the meta-command from `at` to `end` (its line): harmless, an include, or a finding. */
function readMetaCommand(
  text: ScriptText,
  at: number,
  end: number,
  script: PsqlScript,
): void {
  const line = decodeUtf8(text.bytes.subarray(at, end)).replace(
    /[ \t\r]+$/,
    "",
  );
  // psql's slash lexer parts words at ASCII spaces only: a character a
  // Unicode-aware reading takes for a space is part of psql's word.
  const [, name, rest] = /^\\([^ \t\n\r\f\v\\]*)(.*)$/s.exec(line)!;
  const shown = JSON.stringify(`\\${name}`.slice(0, 40));
  const find = (why: string): void => {
    script.findings.push(text.findingAt(`psql ${shown} ${why}`, at, end));
  };
  if (/[\u0080-\uffff]/.test(line)) {
    return find("with a character that is not ASCII");
  }
  if (rest.includes("\\")) {
    return find("followed by another backslash command on its line");
  }
  if (rest.includes("`")) {
    return find("with a backtick (psql runs it in a shell)");
  }
  if (hasControlCharacter(rest)) return find("with a control character");
  if ((PRINTING_META_COMMANDS as readonly string[]).includes(name)) {
    if (rest.includes(":")) return find("with a psql variable");
    return;
  }
  const relative = (RELATIVE_INCLUDE_META_COMMANDS as readonly string[])
    .includes(name);
  if (relative || (INCLUDE_META_COMMANDS as readonly string[]).includes(name)) {
    const path = rest.replace(/^[ \t]+/, "");
    if (!PLAIN_PATH.test(path)) {
      return find("with a path that is not plain (letters, digits, _ . / -)");
    }
    script.includes.push({ path, relative, offset: at, line: text.lineOf(at) });
    return;
  }
  find("(not on the list of harmless meta-commands)");
}

/**
 * Splits a PostgreSQL script, as psql reads it, into tokens: words, quoted
 * identifiers, string literals (standard, `E''`, `B''`, `X''`, `N''`, `U&''`
 * and dollar-quoted), comments (line, and nested block comments), numbers,
 * punctuation, operators, psql meta-commands (`\i file`) and psql variables
 * (`:name`). It reads the text only; what a statement does is
 * `destructive_statements.ts`'s. Pure.
 * @module
 */

/** What a token is. */
export type SqlTokenKind =
  | "word"
  | "quoted-identifier"
  | "string"
  | "line-comment"
  | "block-comment"
  | "number"
  | "punctuation"
  | "operator"
  | "parameter"
  | "meta-command"
  | "variable";

/** One token of a script. */
export interface SqlToken {
  kind: SqlTokenKind;
  /** The token's text as written (a comment's without its `--` or `/* *\/`). */
  text: string;
  /** The 1-based line it starts on. */
  line: number;
  /**
   * Words: the text in upper case, for comparing with keywords. Meta-commands:
   * the command's name without the backslash (`i`, `set`). Variables: the name.
   */
  name?: string;
  /** Variables written `:'name'` or `:"name"`, which psql quotes when it interpolates. */
  quoted?: boolean;
  /** A meta-command line that goes on with `\\` (psql runs what follows as SQL). */
  continued?: boolean;
}

const SPACE = /[ \t\n\r\f\v]/;
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DIGIT = /[0-9]/;
const VARIABLE_PART = /[A-Za-z0-9_\u0080-\uffff]/;
const OPERATOR = /[+\-*/<>=~!@#%^&|`?]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/** The lexer's position in the text. */
class Cursor {
  index = 0;
  line = 1;
  constructor(readonly text: string) {}

  /** The character `ahead` places on (empty past the end). */
  peek(ahead = 0): string {
    return this.text.charAt(this.index + ahead);
  }

  /** Moves to `end`, counting the lines passed. */
  advanceTo(end: number): void {
    const stop = Math.min(end, this.text.length);
    for (let i = this.index; i < stop; i++) {
      if (this.text.charCodeAt(i) === 10) this.line++;
    }
    this.index = stop;
  }

  /** The index of the first `\n` at or after `from`, or the end. */
  lineEnd(from: number): number {
    const end = this.text.indexOf("\n", from);
    return end < 0 ? this.text.length : end;
  }
}

/**
 * Reads a script into tokens. Whitespace is dropped; everything else is a
 * token, so a string literal, a comment or a quoted identifier is never mistaken
 * for a statement. A literal or comment left open runs to the end of the text
 * (psql would send it to the server, which refuses it).
 * @param text The script.
 * @returns Its tokens, in order.
 * @example
 * ```ts
 * sqlTokens("SELECT 'DROP TABLE x'; -- DROP").map((t) => t.kind);
 * // ["word", "string", "punctuation", "line-comment"]
 * ```
 */
export function sqlTokens(text: string): SqlToken[] {
  const cursor = new Cursor(text);
  const tokens: SqlToken[] = [];
  while (cursor.index < text.length) {
    const char = cursor.peek();
    if (SPACE.test(char)) {
      cursor.advanceTo(cursor.index + 1);
      continue;
    }
    const line = cursor.line;
    const start = cursor.index;
    const token = readToken(cursor, char);
    tokens.push({
      line,
      ...token,
      text: token.text ?? text.slice(start, cursor.index),
    });
  }
  return tokens;
}

/** A token as one reader returns it: its text defaults to what it spans. */
type Lexed = Omit<SqlToken, "line" | "text"> & { text?: string };

/** Reads the token at the cursor, which starts with `char`. */
function readToken(cursor: Cursor, char: string): Lexed {
  const next = cursor.peek(1);
  if (char === "-" && next === "-") return lineComment(cursor);
  if (char === "/" && next === "*") return blockComment(cursor);
  if (char === "'") return quoted(cursor, "'", cursor.index, false);
  if (char === '"') return quotedIdentifier(cursor, cursor.index);
  if (char === "$") return dollar(cursor);
  if (char === "\\") return metaCommand(cursor);
  if (char === ":") return colon(cursor);
  if (DIGIT.test(char) || (char === "." && DIGIT.test(next))) {
    return number(cursor);
  }
  if (WORD_START.test(char)) return word(cursor);
  if (OPERATOR.test(char)) return operator(cursor);
  cursor.advanceTo(cursor.index + 1);
  return { kind: "punctuation" };
}

function lineComment(cursor: Cursor): Lexed {
  const end = cursor.lineEnd(cursor.index);
  const text = cursor.text.slice(cursor.index + 2, end);
  cursor.advanceTo(end);
  return { kind: "line-comment", text };
}

/** A block comment; they nest, as in PostgreSQL. */
function blockComment(cursor: Cursor): Lexed {
  const { text } = cursor;
  const start = cursor.index;
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith("/*", i)) {
      depth++;
      i += 2;
    } else if (text.startsWith("*/", i)) {
      depth--;
      i += 2;
      if (depth === 0) break;
    } else i++;
  }
  cursor.advanceTo(i);
  const body = text.slice(start + 2, depth === 0 ? i - 2 : i);
  return { kind: "block-comment", text: body };
}

/**
 * A literal between `quote`s from `start` (the prefix, if any, included):
 * a doubled quote stands for one; with `backslashes` (`E''`), a backslash
 * escapes the next character too.
 */
function quoted(
  cursor: Cursor,
  quote: string,
  start: number,
  backslashes: boolean,
): Lexed {
  const { text } = cursor;
  let i = text.indexOf(quote, start) + 1;
  while (i < text.length) {
    const char = text.charAt(i);
    if (backslashes && char === "\\") i += 2;
    else if (char === quote) {
      if (text.charAt(i + 1) === quote) i += 2;
      else {
        i++;
        break;
      }
    } else i++;
  }
  cursor.advanceTo(Math.min(i, text.length));
  return { kind: quote === "'" ? "string" : "quoted-identifier" };
}

function quotedIdentifier(cursor: Cursor, start: number): Lexed {
  return quoted(cursor, '"', start, false);
}

/** `$1` (a parameter) or a dollar-quoted string `$tag$…$tag$`. */
function dollar(cursor: Cursor): Lexed {
  const { text } = cursor;
  if (DIGIT.test(cursor.peek(1))) {
    let i = cursor.index + 1;
    while (DIGIT.test(text.charAt(i))) i++;
    cursor.advanceTo(i);
    return { kind: "parameter" };
  }
  const tag = DOLLAR_TAG.exec(text.slice(cursor.index, cursor.index + 256));
  if (!tag) {
    cursor.advanceTo(cursor.index + 1);
    return { kind: "punctuation" };
  }
  const close = text.indexOf(tag[0], cursor.index + tag[0].length);
  cursor.advanceTo(close < 0 ? text.length : close + tag[0].length);
  return { kind: "string" };
}

/**
 * A psql meta-command: a backslash, its name, and its arguments to the end of
 * the line. psql runs what follows `\\` on the line as SQL; such a line is
 * marked `continued`.
 */
function metaCommand(cursor: Cursor): Lexed {
  const { text } = cursor;
  const end = cursor.lineEnd(cursor.index);
  const body = text.slice(cursor.index + 1, end);
  const name = /^[A-Za-z]+/.exec(body)?.[0] ?? body.charAt(0);
  const rest = body.slice(name.length);
  cursor.advanceTo(end);
  return {
    kind: "meta-command",
    name: name.toLowerCase(),
    ...(rest.includes("\\\\") || name === "\\" ? { continued: true } : {}),
  };
}

/** `::`, `:=`, a psql variable (`:name`, `:'name'`, `:"name"`), or a colon. */
function colon(cursor: Cursor): Lexed {
  const { text } = cursor;
  const next = cursor.peek(1);
  if (next === ":" || next === "=") {
    cursor.advanceTo(cursor.index + 2);
    return { kind: "operator" };
  }
  if (VARIABLE_PART.test(next)) {
    let i = cursor.index + 1;
    while (VARIABLE_PART.test(text.charAt(i))) i++;
    const name = text.slice(cursor.index + 1, i);
    cursor.advanceTo(i);
    return { kind: "variable", name };
  }
  if (next === "'" || next === '"') {
    const match = new RegExp(`^:${next}([A-Za-z0-9_\\u0080-\\uffff]+)${next}`)
      .exec(text.slice(cursor.index, cursor.index + 256));
    if (match) {
      cursor.advanceTo(cursor.index + match[0].length);
      return { kind: "variable", name: match[1], quoted: true };
    }
  }
  cursor.advanceTo(cursor.index + 1);
  return { kind: "punctuation" };
}

function number(cursor: Cursor): Lexed {
  const match =
    /^(?:0[xXoObB][0-9A-Fa-f_]+|[0-9_]*\.?[0-9_]+(?:[eE][+-]?[0-9]+)?|[0-9][0-9_]*\.)/
      .exec(cursor.text.slice(cursor.index, cursor.index + 1024));
  cursor.advanceTo(cursor.index + Math.max(1, match?.[0].length ?? 1));
  return { kind: "number" };
}

/**
 * A word, or the prefix of a literal written against it: `E'…'` (backslash
 * escapes), `B'…'`, `X'…'`, `N'…'`, `U&'…'` and `U&"…"`.
 */
function word(cursor: Cursor): Lexed {
  const { text } = cursor;
  const start = cursor.index;
  let i = start + 1;
  while (i < text.length && WORD_PART.test(text.charAt(i))) i++;
  const written = text.slice(start, i);
  const upper = written.toUpperCase();
  const after = text.charAt(i);
  if (after === "'" && ["E", "B", "X", "N"].includes(upper)) {
    return quoted(cursor, "'", i, upper === "E");
  }
  if (upper === "U" && after === "&") {
    const quote = text.charAt(i + 1);
    if (quote === "'") return quoted(cursor, "'", i + 1, false);
    if (quote === '"') return quotedIdentifier(cursor, i + 1);
  }
  cursor.advanceTo(i);
  return { kind: "word", name: upper };
}

/** A run of operator characters, stopping before a comment starts. */
function operator(cursor: Cursor): Lexed {
  const { text } = cursor;
  let i = cursor.index + 1;
  while (
    i < text.length && OPERATOR.test(text.charAt(i)) &&
    !text.startsWith("--", i) && !text.startsWith("/*", i)
  ) i++;
  cursor.advanceTo(i);
  return { kind: "operator" };
}

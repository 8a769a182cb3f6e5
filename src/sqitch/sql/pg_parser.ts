/**
 * PostgreSQL's own scanner and parsers (SQL and PL/pgSQL), as PostgreSQL 18
 * builds them (`libpg-query`), loaded on first use: the lexer's tokens with
 * their byte offsets, the raw parse tree of a script, and the PL/pgSQL tree of
 * a function or `DO` body, each as an answer or the parser's error. It says
 * nothing about what a statement does (`allowed_statements.ts` does).
 * @module
 */

/** One token of PostgreSQL's lexer; offsets count UTF-8 bytes of the text scanned. */
export interface ScanToken {
  /** The offset of its first byte. */
  start: number;
  /** The offset after its last byte. */
  end: number;
  /** Its text as written. */
  text: string;
  /** The lexer's name for it: `IDENT`, `SCONST`, `SQL_COMMENT`, `ASCII_59`, …; `UNKNOWN` for keywords and most single characters. */
  tokenName: string;
}

/** A node of a parse tree: `{ "<NodeType>": { …fields } }`, as `libpg-query` writes it. */
export type PgNode = Record<string, unknown>;

/** One statement of a parsed script. */
export interface RawStatement {
  /** The statement's tree. */
  stmt: PgNode;
  /** The offset of its first byte (where the text after the statement before it starts). */
  location: number;
  /** Its length in bytes, or undefined when it runs to the end of the text. */
  length: number | undefined;
}

/** An answer of the parser, or its error. */
export type Parsed<T> =
  | { ok: true; value: T }
  | { ok: false; error: string; position?: number };

/** PostgreSQL's scanner and parsers, ready to call. */
export interface PgParser {
  /**
   * Splits text into PostgreSQL's tokens (comments included, whitespace not).
   * @param text The text, without NUL characters.
   * @returns The tokens, or the lexer's error (`unterminated quoted string at or near "'a"`).
   */
  scan(text: string): Parsed<ScanToken[]>;
  /**
   * Parses text as SQL statements (the raw parse tree, before any catalog lookup).
   * @param text The text, without NUL characters.
   * @returns The statements, or the error with the byte offset it points at.
   */
  parse(text: string): Parsed<RawStatement[]>;
  /**
   * Parses the PL/pgSQL body of one `CREATE FUNCTION`, `CREATE PROCEDURE` or
   * `DO` statement.
   * @param text The statement's text.
   * @returns The PL/pgSQL functions it holds (`PLpgSQL_function` nodes), or the error.
   */
  parsePlpgsql(text: string): Parsed<PgNode[]>;
}

/**
 * Loads PostgreSQL's parser: decodes and compiles the bundled WebAssembly
 * (tens of milliseconds) and starts one instance. Call once per command that
 * reads SQL and pass the parser down.
 * @returns The parser.
 */
export async function loadPgParser(): Promise<PgParser> {
  const { instantiatePgQuery } = await import("./_pg_wasm.ts");
  const module = await instantiatePgQuery();

  /** Runs `entry` on `text` in the module's memory; the pointer it returns, read then freed by `read`. */
  function withText<T>(text: string, entry: (pointer: number) => T): T {
    const size = module.lengthBytesUTF8(text) + 1;
    const pointer = module._malloc(size);
    try {
      module.stringToUTF8(text, pointer, size);
      return entry(pointer);
    } finally {
      module._free(pointer);
    }
  }

  /** Calls an entry point that answers with a string (JSON, or an error message). */
  function stringAnswer(
    text: string,
    entry: (pointer: number) => number,
  ): string {
    return withText(text, (pointer) => {
      const result = entry(pointer);
      try {
        return module.UTF8ToString(result);
      } finally {
        module._wasm_free_string(result);
      }
    });
  }

  return {
    scan(text) {
      const answer = stringAnswer(text, (p) => module._wasm_scan(p));
      if (!answer.startsWith("{")) return { ok: false, error: answer };
      const tokens = (jsonAnswer(answer) as { tokens?: ScanToken[] }).tokens ??
        [];
      return {
        ok: true,
        value: tokens.map(({ start, end, text, tokenName }) => ({
          start,
          end,
          text,
          tokenName,
        })),
      };
    },
    parse(text) {
      return withText(text, (pointer) => {
        const result = module._wasm_parse_query_raw(pointer);
        try {
          const tree = module.getValue(result, "i32");
          const error = module.getValue(result + 8, "i32");
          if (error) {
            const message = module.getValue(error, "i32");
            const cursor = module.getValue(error + 16, "i32");
            return {
              ok: false,
              error: message ? module.UTF8ToString(message) : "unknown error",
              position: cursor > 0 ? cursor - 1 : 0,
            };
          }
          const parsed = jsonAnswer(module.UTF8ToString(tree)) as {
            stmts?: {
              stmt: PgNode;
              stmt_location?: number;
              stmt_len?: number;
            }[];
          };
          return {
            ok: true,
            value: (parsed.stmts ?? []).map((raw) => ({
              stmt: raw.stmt,
              location: raw.stmt_location ?? 0,
              length: raw.stmt_len || undefined,
            })),
          };
        } finally {
          module._wasm_free_parse_result(result);
        }
      });
    },
    parsePlpgsql(text) {
      const answer = stringAnswer(text, (p) => module._wasm_parse_plpgsql(p));
      if (!answer.startsWith("{")) return { ok: false, error: answer };
      const parsed = jsonAnswer(answer) as { plpgsql_funcs?: PgNode[] };
      return { ok: true, value: parsed.plpgsql_funcs ?? [] };
    },
  };
}

/**
 * Reads the JSON the module answers. Its writer leaves some control
 * characters of the text (a vertical tab, a form feed) raw inside strings,
 * where JSON allows none: an answer JSON refuses is read again with every
 * control character but JSON's own spaces (tab, line feed, carriage return,
 * which it writes between tokens) escaped.
 * @throws {SyntaxError} When that is not JSON either.
 */
function jsonAnswer(answer: string): unknown {
  try {
    return JSON.parse(answer);
  } catch {
    return JSON.parse(
      answer.replace(
        // deno-lint-ignore no-control-regex -- escaping them is the point
        /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      ),
    );
  }
}

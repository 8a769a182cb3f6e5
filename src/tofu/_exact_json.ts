/**
 * A strict JSON reader for plan documents that loses nothing a digest needs:
 * numbers keep their exact decimal value (as {@linkcode ExactNumber}, never a
 * rounded double), objects have no prototype (so a `"__proto__"` key is just a
 * key), a repeated key is an error, and nesting is capped. Members of the top
 * level that the caller does not want are checked for syntax but never built.
 * Pure; it does not know what a plan is.
 * @module
 */

import { ShapeError } from "../input/shape_error.ts";
import { quote } from "../quote.ts";
import { canonicalNumber } from "./_canonical_number.ts";

/** A JSON number, kept as its canonical decimal text (see `canonicalNumber`). */
export class ExactNumber {
  /**
   * @param text The canonical text, e.g. `12345678901234567891`, `1.5`, `1e+400`.
   */
  constructor(readonly text: string) {}
}

/** A JSON object without a prototype. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A parsed JSON value. */
export type JsonValue =
  | null
  | boolean
  | string
  | ExactNumber
  | JsonValue[]
  | JsonObject;

/** The deepest nesting a plan document may have. */
export const MAX_DEPTH = 512;

/** A syntax error at a place in the text. */
export class JsonSyntaxError extends Error {
  /**
   * @param what What is wrong, e.g. `unexpected character "}"`.
   * @param line 1-based line.
   * @param col 1-based column.
   */
  constructor(what: string, readonly line: number, readonly col: number) {
    super(`${what} at line ${line}, column ${col}`);
    this.name = "JsonSyntaxError";
  }
}

// deno-lint-ignore no-control-regex -- JSON strings may not hold raw control characters
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** The reader's state over one text. */
class Reader {
  at = 0;
  constructor(readonly text: string) {}

  fail(what: string, at = this.at): never {
    let line = 1;
    let start = 0;
    for (let i = this.text.indexOf("\n"); i !== -1 && i < at;) {
      line++;
      start = i + 1;
      i = this.text.indexOf("\n", start);
    }
    throw new JsonSyntaxError(what, line, at - start + 1);
  }

  unexpected(): never {
    if (this.at >= this.text.length) this.fail("unexpected end of input");
    const char = this.text.codePointAt(this.at)!;
    const shown = char < 0x20 || char === 0x7f
      ? `\\x${char.toString(16).padStart(2, "0")}`
      : String.fromCodePoint(char);
    this.fail(`unexpected character "${shown}"`);
  }

  skipSpace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.test(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  expect(char: string): void {
    this.skipSpace();
    if (this.text[this.at] !== char) this.unexpected();
    this.at++;
  }

  /** Reads a value; `build` false checks it and returns null. */
  value(depth: number, build: boolean): JsonValue {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    this.skipSpace();
    const char = this.text[this.at];
    if (char === "{") return this.object(depth, build);
    if (char === "[") return this.array(depth, build);
    if (char === '"') return this.string();
    if (char === "-" || (char >= "0" && char <= "9")) return this.number(build);
    for (const [word, value] of [["true", true], ["false", false]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    if (this.text.startsWith("null", this.at)) {
      this.at += 4;
      return null;
    }
    this.unexpected();
  }

  /**
   * Reads an object. With `wanted`, only the members it names are built (the
   * top level); every key is still checked for repeats, and noted in `seen`.
   */
  object(
    depth: number,
    build: boolean,
    wanted?: ReadonlySet<string>,
    seen: Set<string> = new Set(),
  ): JsonObject {
    this.at++;
    const out: JsonObject = Object.create(null);
    this.skipSpace();
    if (this.text[this.at] === "}") {
      this.at++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      const keyAt = this.at;
      if (this.text[this.at] !== '"') this.unexpected();
      const key = this.string();
      if (seen.has(key)) {
        this.fail(
          `key ${quote(key)} appears twice`,
          keyAt,
        );
      }
      seen.add(key);
      this.expect(":");
      const keep = build && (wanted === undefined || wanted.has(key));
      const value = this.value(depth + 1, keep);
      if (keep) out[key] = value;
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === "}") return out;
      if (next !== ",") {
        this.at--;
        this.unexpected();
      }
    }
  }

  array(depth: number, build: boolean): JsonValue[] {
    this.at++;
    const out: JsonValue[] = [];
    this.skipSpace();
    if (this.text[this.at] === "]") {
      this.at++;
      return out;
    }
    for (;;) {
      const value = this.value(depth + 1, build);
      if (build) out.push(value);
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === "]") return out;
      if (next !== ",") {
        this.at--;
        this.unexpected();
      }
    }
  }

  string(): string {
    this.at++;
    let out = "";
    for (;;) {
      PLAIN_RUN.lastIndex = this.at;
      PLAIN_RUN.test(this.text);
      out += this.text.slice(this.at, PLAIN_RUN.lastIndex);
      this.at = PLAIN_RUN.lastIndex;
      const char = this.text[this.at];
      if (char === '"') {
        this.at++;
        return out;
      }
      if (char !== "\\") {
        if (char === undefined) this.fail("unterminated string");
        this.fail("control character in a string");
      }
      out += this.escape();
    }
  }

  escape(): string {
    const kind = this.text[this.at + 1];
    if (kind === "u") {
      const hex = this.text.slice(this.at + 2, this.at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape");
      this.at += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const char = kind === undefined ? undefined : ESCAPES[kind];
    if (char === undefined) this.fail("invalid escape in a string");
    this.at += 2;
    return char;
  }

  number(build: boolean): JsonValue {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) this.unexpected();
    const start = this.at;
    this.at = NUMBER.lastIndex;
    if (!build) return null;
    const text = canonicalNumber(match[0]);
    if (text === undefined) this.fail("number out of range", start);
    return new ExactNumber(text);
  }
}

/**
 * Parses a JSON text whose top level is an object, building only the members
 * named in `wanted` (the rest are checked, not kept).
 * @param text The JSON text.
 * @param wanted The top-level keys to build.
 * @returns The wanted members, in a prototype-free object, and every top-level key.
 * @throws {JsonSyntaxError} On invalid JSON, a repeated key, nesting deeper than
 *   {@linkcode MAX_DEPTH}, or an exponent beyond nine digits.
 * @throws {ShapeError} When the top level is valid JSON but not an object.
 * @example
 * ```ts
 * const { members } = parseTopObject('{"a": 1.50, "b": [2]}', new Set(["a"]));
 * (members.a as ExactNumber).text; // "1.5"; "b" was checked, not built
 * ```
 */
export function parseTopObject(
  text: string,
  wanted: ReadonlySet<string>,
): { members: JsonObject; keys: string[] } {
  const reader = new Reader(text);
  reader.skipSpace();
  if (reader.text[reader.at] !== "{") {
    reader.value(0, false);
    reader.skipSpace();
    if (reader.at < text.length) reader.unexpected();
    throw new ShapeError("", "is JSON, but not an object");
  }
  const keys = new Set<string>();
  const members = reader.object(0, true, wanted, keys);
  reader.skipSpace();
  if (reader.at < text.length) reader.unexpected();
  return { members, keys: [...keys] };
}

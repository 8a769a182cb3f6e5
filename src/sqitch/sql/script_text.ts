/**
 * A script's bytes as psql reads them, with what every reader of it needs: the
 * 1-based line of a byte offset, and a statement's text as a finding shows it
 * (whitespace collapsed, bounded). Also the shape of a finding: one reason a
 * script is destructive. It judges nothing itself. Pure.
 * @module
 */

/** One reason a script is destructive. */
export interface Finding {
  /** What it is: `DELETE`, `ALTER TABLE … DROP COLUMN`, `psql \! (not on the list)`. */
  what: string;
  /** The 1-based line of the script it starts on. */
  line: number;
  /** Its text, whitespace collapsed, at most {@linkcode MAX_STATEMENT_CHARS} characters. */
  statement: string;
}

/** The most characters of a statement a finding shows. */
export const MAX_STATEMENT_CHARS = 120;

/** A script's bytes and where its lines start. */
export class ScriptText {
  /** The bytes, as read. */
  readonly bytes: Uint8Array;
  /** The offset of each line's first byte, in order (the first is 0). */
  readonly #lineStarts: number[];

  /**
   * Indexes the lines of a script.
   * @param bytes The script (valid UTF-8, no NUL: see {@linkcode unreadableBytes}).
   */
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.#lineStarts = [0];
    bytes.forEach((byte, i) => {
      if (byte === 10) this.#lineStarts.push(i + 1);
    });
  }

  /**
   * The line a byte offset is on.
   * @param offset A byte offset.
   * @returns Its 1-based line.
   */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  /**
   * The text of a byte range as a finding shows it.
   * @param start The first byte.
   * @param end The byte after the last (default: the end of the script).
   * @returns The text, whitespace collapsed and trimmed, cut to
   *   {@linkcode MAX_STATEMENT_CHARS} characters with `…`.
   */
  excerpt(start: number, end = this.bytes.length): string {
    return excerptOf(decodeUtf8(this.bytes.subarray(start, end)));
  }

  /**
   * A finding at a byte offset.
   * @param what What it is.
   * @param start Where its text starts.
   * @param end Where its text ends (default: the end of its line).
   * @returns The finding.
   */
  findingAt(what: string, start: number, end?: number): Finding {
    const stop = end ?? this.lineEnd(start);
    return {
      what,
      line: this.lineOf(start),
      statement: this.excerpt(start, stop),
    };
  }

  /**
   * The offset of the newline that ends the line of `offset`, or the length.
   * @param offset A byte offset.
   * @returns The offset of the line's `\n`, or the script's length.
   */
  lineEnd(offset: number): number {
    const end = this.bytes.indexOf(10, offset);
    return end < 0 ? this.bytes.length : end;
  }
}

/**
 * Decodes UTF-8 keeping a byte order mark, so offsets in the text and the
 * bytes agree.
 * @param bytes Valid UTF-8.
 * @returns The text.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/**
 * Collapses whitespace and bounds a text for a finding.
 * @param text A statement's text.
 * @returns It with runs of whitespace as one space, trimmed, at most
 *   {@linkcode MAX_STATEMENT_CHARS} characters (`…` when cut).
 * @example
 * ```ts
 * excerptOf("DROP\n  TABLE a"); // "DROP TABLE a"
 * ```
 */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length > MAX_STATEMENT_CHARS
    ? `${chars.slice(0, MAX_STATEMENT_CHARS - 1).join("")}…`
    : flat;
}

/**
 * Why psql and the server cannot be trusted to read these bytes as chant-wave
 * does: not UTF-8 (the client encoding chant-wave sets), or a NUL byte (the
 * parser reads C strings).
 * @param bytes A script.
 * @returns The reason, or undefined when the bytes are readable.
 * @example
 * ```ts
 * unreadableBytes(new Uint8Array([0xff])); // "not valid UTF-8"
 * ```
 */
export function unreadableBytes(bytes: Uint8Array): string | undefined {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return "not valid UTF-8";
  }
  return bytes.includes(0) ? "a NUL byte" : undefined;
}

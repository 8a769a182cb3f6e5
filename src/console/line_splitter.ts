/**
 * Turns a stream of bytes into complete lines, whatever the chunking: a streaming
 * UTF-8 decoder (invalid bytes become U+FFFD, a character split across chunks is
 * decoded whole), `\n` and `\r\n` end a line, and a line longer than a fixed bound
 * comes out in pieces so memory stays bounded. Pure: it does no I/O.
 * @module
 */

/** The default bound on a line, in UTF-16 code units (64 Ki). */
export const DEFAULT_MAX_LINE_LENGTH = 64 * 1024;

/** Options of {@linkcode LineSplitter}. */
export interface LineSplitterOptions {
  /**
   * The longest line kept whole, in UTF-16 code units; a longer line is emitted
   * as pieces of at most this length (never splitting a surrogate pair).
   * @default {64 * 1024}
   */
  maxLineLength?: number;
}

/**
 * Splits bytes into lines. Feed chunks with {@linkcode LineSplitter.push}, then
 * call {@linkcode LineSplitter.flush} once at the end of the stream.
 *
 * Contract: the lines emitted are the same however the bytes are chunked (empty
 * chunks included), except where a piece boundary of an over-long line would fall
 * right after a `\r`; a bare `\r` that is not followed by `\n` stays in the line.
 * At most `maxLineLength` code units (plus a decoder's partial character) are held
 * between calls.
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter();
 * const bytes = new TextEncoder().encode("one\r\ntwo\nthr");
 * splitter.push(bytes.subarray(0, 4)); // [] ("one\r" waits for its "\n")
 * splitter.push(bytes.subarray(4)); // ["one", "two"]
 * splitter.flush(); // "thr"
 * ```
 */
export class LineSplitter {
  readonly #decoder = new TextDecoder("utf-8", { fatal: false });
  readonly #max: number;
  #pending = "";

  /**
   * @param options The line bound.
   * @throws {RangeError} When `maxLineLength` is not an integer of at least 2.
   */
  constructor(options: LineSplitterOptions = {}) {
    const max = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    if (!Number.isInteger(max) || max < 2) {
      throw new RangeError(
        `Cannot split lines: maxLineLength must be an integer of at least 2, got ${max}`,
      );
    }
    this.#max = max;
  }

  /**
   * Decodes a chunk and returns the lines it completes, without their line ends.
   * @param chunk The next bytes of the stream; may be empty.
   * @returns The completed lines (and pieces of over-long lines), in order.
   */
  push(chunk: Uint8Array): string[] {
    const text = this.#decoder.decode(chunk, { stream: true });
    if (text === "") return [];
    const lines: string[] = [];
    const buffer = this.#pending === "" ? text : this.#pending + text;
    let start = 0;
    let end = buffer.indexOf("\n");
    while (end !== -1) {
      const lineEnd = end > start && buffer.charCodeAt(end - 1) === 13
        ? end - 1
        : end;
      this.#emit(buffer.slice(start, lineEnd), lines);
      start = end + 1;
      end = buffer.indexOf("\n", start);
    }
    this.#pending = this.#cut(buffer.slice(start), lines);
    return lines;
  }

  /**
   * Ends the stream: decodes what the decoder still holds (an incomplete
   * character becomes U+FFFD) and returns the last line if it had no newline.
   * The splitter is then empty and can be reused for a new stream.
   * @returns The last line, without a line end, or `undefined` when the stream
   * ended with a newline (or was empty).
   */
  flush(): string | undefined {
    const rest = this.#pending + this.#decoder.decode();
    this.#pending = "";
    return rest === "" ? undefined : rest;
  }

  /** Pushes a complete line, in pieces when it is longer than the bound. */
  #emit(line: string, lines: string[]): void {
    if (line.length <= this.#max) {
      lines.push(line);
      return;
    }
    const rest = this.#cut(line, lines);
    lines.push(rest);
  }

  /** Emits pieces of `text` while it is longer than the bound; returns the rest. */
  #cut(text: string, lines: string[]): string {
    let rest = text;
    while (rest.length > this.#max) {
      let size = this.#max;
      const last = rest.charCodeAt(size - 1);
      // Keep a surrogate pair whole, and keep a "\r" with a "\n" that may follow.
      if ((last >= 0xd800 && last <= 0xdbff) || last === 13) size -= 1;
      lines.push(rest.slice(0, size));
      rest = rest.slice(size);
    }
    return rest;
  }
}

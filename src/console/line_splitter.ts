/**
 * Turns a stream of bytes into lines, whatever the chunking, without decoding
 * them: `\n` and `\r\n` end a line, a line longer than a fixed bound comes out in
 * pieces (never splitting a UTF-8 character, never right after a `\r`), and each
 * line is marked plain when it holds only printable ASCII and tabs, so a printer
 * may copy it as it is and send only the other lines through `visible`. Pure: it
 * does no I/O and holds one chunk and at most one bounded partial line.
 * @module
 */

/** The default bound on a line, in bytes (64 KiB). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024;

/** The smallest bound: room for a 4-byte character, a `\r`, and progress. */
const MIN_MAX_LINE_BYTES = 8;

/**
 * Receives one line: `bytes[start..end)`, without its line end. The range stays
 * valid until the next `push` or `flush` call of the splitter (it lies in the
 * splitter's own buffer), so copy or decode what you keep.
 * `plain` is true when every byte is printable ASCII (0x20–0x7e) or a tab; when
 * false the line holds another byte (a control character, or a byte of a UTF-8
 * character, valid or not) and may need escaping.
 */
export type LineSink = (
  bytes: Uint8Array,
  start: number,
  end: number,
  plain: boolean,
) => void;

/** Options of {@linkcode LineSplitter}. */
export interface LineSplitterOptions {
  /**
   * The longest line kept whole, in bytes (at least 8); a longer line is emitted
   * as pieces of at most this length.
   * @default {64 * 1024}
   */
  maxLineBytes?: number;
}

/**
 * Splits bytes into lines. Feed chunks with {@linkcode LineSplitter.push}, then
 * call {@linkcode LineSplitter.flush} once at the end of the stream.
 *
 * Contract: the lines emitted (bytes and pieces) are the same however the bytes
 * are chunked, empty chunks included; a bare `\r` not followed by `\n` stays in
 * the line. A piece ends on a UTF-8 character boundary and never right after a
 * `\r`. At most one chunk plus `maxLineBytes + 1` bytes are held between calls.
 * A line's `plain` mark may be false for a plain line (a piece of a line, a line
 * whose `\r\n` was split across chunks), never true for a line that is not.
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter();
 * const lines: string[] = [];
 * const sink: LineSink = (bytes, start, end) =>
 *   lines.push(new TextDecoder().decode(bytes.subarray(start, end)));
 * const data = new TextEncoder().encode("one\r\ntwo\nthr");
 * splitter.push(data.subarray(0, 4), sink); // lines: [] ("one\r" waits)
 * splitter.push(data.subarray(4), sink); // lines: ["one", "two"]
 * splitter.flush(sink); // lines: ["one", "two", "thr"]
 * ```
 */
export class LineSplitter {
  readonly #max: number;
  /** The partial line (at `#start`) and then the chunk being split. */
  #work = new Uint8Array(0);
  /** `#work` as 32-bit words, for the scan. */
  #words = new Int32Array(0);
  /** Where the partial line starts in `#work`, and its length. */
  #start = 0;
  #length = 0;
  /** Whether the partial line is plain so far. */
  #plain = true;

  /**
   * @param options The line bound.
   * @throws {RangeError} When `maxLineBytes` is not an integer of at least 8.
   */
  constructor(options: LineSplitterOptions = {}) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max < MIN_MAX_LINE_BYTES) {
      throw new RangeError(
        `Cannot split lines: maxLineBytes must be an integer of at least ${MIN_MAX_LINE_BYTES}, got ${max}`,
      );
    }
    this.#max = max;
  }

  /**
   * Takes the next chunk and hands every line it completes to `sink`, in order
   * (pieces of an over-long line too).
   * @param chunk The next bytes of the stream; may be empty. Not kept.
   * @param sink Receives the lines.
   */
  push(chunk: Uint8Array, sink: LineSink): void {
    if (chunk.length === 0) return;
    const from = this.#place(chunk);
    const to = from + chunk.length;
    const work = this.#work;
    const words = this.#words;
    const max = this.#max;
    let lineStart = this.#start;
    let plain = this.#plain;
    for (let w = from >>> 2, last = (to - 1) >>> 2; w <= last; w++) {
      const word = words[w];
      // Skip a word of four printable ASCII bytes: no byte below 0x20, none above 0x7e.
      if (
        ((((word - 0x20202020) & ~word) | ((word + 0x01010101) | word)) &
          0x80808080) === 0
      ) continue;
      for (let i = w << 2, end = i + 4; i < end; i++) {
        const byte = work[i];
        if (byte >= 0x20 && byte < 0x7f) continue;
        if (byte === 10) {
          const lineEnd = i > lineStart && work[i - 1] === 13 ? i - 1 : i;
          if (lineEnd - lineStart <= max) sink(work, lineStart, lineEnd, plain);
          else this.#emit(lineStart, lineEnd, plain, sink);
          lineStart = i + 1;
          plain = true;
        } else if (byte !== 9 && !(byte === 13 && work[i + 1] === 10)) {
          plain = false;
        }
      }
    }
    this.#start = lineStart;
    this.#length = to - lineStart;
    this.#plain = plain;
    this.#cutPartial(sink);
  }

  /**
   * Ends the stream: hands the last line to `sink` when the stream did not end
   * with a newline (a trailing `\r` stays in it). The splitter is then empty and
   * can be reused for a new stream.
   * @param sink Receives the last line, if there is one.
   */
  flush(sink: LineSink): void {
    if (this.#length > 0) {
      this.#emit(this.#start, this.#start + this.#length, this.#plain, sink);
    }
    this.#start = 0;
    this.#length = 0;
    this.#plain = true;
  }

  /**
   * Moves the partial line to the front of the buffer (growing it when needed)
   * so that the chunk, copied right after it, starts on a word boundary, and pads
   * the chunk's last word with spaces (printable, so the scan skips them; a `\r`
   * at the chunk's end is not taken for a line end). Returns where the chunk
   * starts.
   */
  #place(chunk: Uint8Array): number {
    const length = this.#length;
    const from = (length + 3) & ~3;
    const needed = from + chunk.length + 4;
    if (needed > this.#work.length) {
      const size = (Math.max(needed, this.#work.length * 2) + 3) & ~3;
      const work = new Uint8Array(size);
      work.set(
        this.#work.subarray(this.#start, this.#start + length),
        from - length,
      );
      this.#work = work;
      this.#words = new Int32Array(work.buffer);
    } else if (length > 0 && this.#start !== from - length) {
      this.#work.copyWithin(from - length, this.#start, this.#start + length);
    }
    this.#start = from - length;
    this.#work.set(chunk, from);
    this.#work.fill(0x20, from + chunk.length, from + chunk.length + 4);
    return from;
  }

  /** Emits pieces of the partial line while it is known to exceed the bound. */
  #cutPartial(sink: LineSink): void {
    const end = this.#start + this.#length;
    // A last "\r" may still be the start of the line's "\r\n".
    const content = this.#work[end - 1] === 13 ? end - 1 : end;
    let start = this.#start;
    while (content - start > this.#max) {
      const cut = this.#cutAt(start);
      sink(this.#work, start, cut, this.#plain);
      start = cut;
    }
    this.#start = start;
    this.#length = end - start;
  }

  /** Emits a complete line, in pieces when it is longer than the bound. */
  #emit(start: number, end: number, plain: boolean, sink: LineSink): void {
    let from = start;
    while (end - from > this.#max) {
      const cut = this.#cutAt(from);
      sink(this.#work, from, cut, plain);
      from = cut;
    }
    sink(this.#work, from, end, plain);
  }

  /**
   * Where a piece starting at `start` ends: after `max` bytes, moved back to the
   * start of a UTF-8 character that would not fit whole, and before a `\r`
   * (which may be the start of a `\r\n`). Looks only at the bytes before the
   * cut, so the pieces do not depend on the chunking.
   */
  #cutAt(start: number): number {
    const work = this.#work;
    let cut = start + this.#max;
    for (let back = 1; back <= 3; back++) {
      const byte = work[cut - back];
      if (byte < 0x80) break;
      if (byte >= 0xc0) {
        const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
        if (size > back) cut -= back;
        break;
      }
    }
    if (work[cut - 1] === 13) cut -= 1;
    return cut;
  }
}

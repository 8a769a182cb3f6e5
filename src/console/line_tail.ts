/**
 * The tail of a step's output kept as text (SPEC.md §7: a failed step's message
 * carries its last 20 lines) while its lines go by as byte ranges: it notes the
 * ranges of a batch and decodes only the ones that can still be among the last,
 * when the batch ends. Pure; the lines come from `line_splitter.ts`.
 * The lines are kept in a bounded ring of the last ones a step printed.
 * @module
 */

// Stateless: it only ever decodes whole lines (never with `stream: true`).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Keeps the last `capacity` lines of a stream of byte lines, decoded as UTF-8
 * (invalid bytes become U+FFFD). Note each line of a batch with
 * {@linkcode LineTail.note}, then call {@linkcode LineTail.settle} before the
 * noted bytes change; it decodes at most `capacity` lines per batch.
 * @example
 * ```ts
 * const tail = new LineTail(2);
 * const bytes = new TextEncoder().encode("a\nb\nc");
 * tail.note(bytes, 0, 1);
 * tail.note(bytes, 2, 3);
 * tail.note(bytes, 4, 5);
 * tail.settle();
 * tail.lines(); // ["b", "c"]
 * ```
 */
export class LineTail {
  readonly #tail: TailBuffer;
  readonly #bytes: (Uint8Array | undefined)[];
  /** Start and end of each noted line, by slot. */
  readonly #ranges: Int32Array;
  /** The next slot, and how many lines were noted since the last settle. */
  #next = 0;
  #noted = 0;

  /**
   * @param capacity How many lines to keep.
   * @throws {RangeError} When `capacity` is not a non-negative integer.
   */
  constructor(capacity: number) {
    this.#tail = new TailBuffer(capacity);
    this.#bytes = new Array(capacity).fill(undefined);
    this.#ranges = new Int32Array(capacity * 2);
  }

  /**
   * Notes a line; its bytes must stay unchanged until the next `settle`.
   * @param bytes Holds the line.
   * @param start Where the line starts in `bytes`.
   * @param end Where it ends (exclusive), without its line end.
   */
  note(bytes: Uint8Array, start: number, end: number): void {
    const capacity = this.#bytes.length;
    if (capacity === 0) return;
    const slot = this.#next;
    this.#bytes[slot] = bytes;
    this.#ranges[slot * 2] = start;
    this.#ranges[slot * 2 + 1] = end;
    this.#next = slot + 1 === capacity ? 0 : slot + 1;
    this.#noted++;
  }

  /** Decodes the lines noted since the last call that can still be in the tail. */
  settle(): void {
    const capacity = this.#bytes.length;
    const count = Math.min(this.#noted, capacity);
    let slot = (this.#next - count + capacity) % (capacity || 1);
    for (let i = 0; i < count; i++) {
      const bytes = this.#bytes[slot] as Uint8Array;
      this.#tail.push(
        decoder.decode(
          bytes.subarray(this.#ranges[slot * 2], this.#ranges[slot * 2 + 1]),
        ),
      );
      this.#bytes[slot] = undefined;
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
    this.#noted = 0;
  }

  /**
   * The kept lines, oldest first (settling first).
   * @returns A new array.
   */
  lines(): string[] {
    this.settle();
    return this.#tail.lines();
  }
}

/** How many lines a failed step's message carries by default. */
export const DEFAULT_TAIL_LINES = 20;

/**
 * Keeps the last `capacity` lines pushed, in O(1) per line and O(capacity) memory.
 * @example
 * ```ts
 * const tail = new TailBuffer(2);
 * for (const line of ["a", "b", "c"]) tail.push(line);
 * tail.lines(); // ["b", "c"]
 * ```
 */
export class TailBuffer {
  readonly #slots: string[];
  #next = 0;
  #size = 0;

  /**
   * @param capacity How many lines to keep.
   * @default {20}
   * @throws {RangeError} When `capacity` is not a non-negative integer.
   */
  constructor(capacity: number = DEFAULT_TAIL_LINES) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(
        `Cannot keep a tail: capacity must be a non-negative integer, got ${capacity}`,
      );
    }
    this.#slots = new Array<string>(capacity);
  }

  /** How many lines the buffer holds now (at most its capacity). */
  get size(): number {
    return this.#size;
  }

  /**
   * Adds a line, dropping the oldest one when full.
   * @param line The line, without its line end.
   */
  push(line: string): void {
    const capacity = this.#slots.length;
    if (capacity === 0) return;
    this.#slots[this.#next] = line;
    this.#next = (this.#next + 1) % capacity;
    if (this.#size < capacity) this.#size += 1;
  }

  /**
   * The kept lines, oldest first.
   * @returns A new array.
   */
  lines(): string[] {
    const capacity = this.#slots.length;
    const first = (this.#next - this.#size + capacity) % (capacity || 1);
    const out: string[] = [];
    for (let i = 0; i < this.#size; i++) {
      out.push(this.#slots[(first + i) % capacity]);
    }
    return out;
  }
}

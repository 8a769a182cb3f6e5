/**
 * A bounded ring of the last lines a step printed, for the message of a failed
 * step (SPEC.md §7: the last 20 lines). Pure; it keeps lines, it does not split
 * them (see `line_splitter.ts`).
 * @module
 */

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

/**
 * Maps JSON paths (`["waves", 1, "runs", 3]`) to line and column in JSONC text,
 * for spec problems. A small scanner of its own that indexes every value and key
 * once; it runs only when there are problems, and only over text that already
 * parsed, so it does not report syntax errors itself.
 * @module
 */

/** A path into a JSON value: object keys and array indices. */
export type Path = readonly (string | number)[];

/** A 1-based line and column (in UTF-16 code units). */
export interface Position {
  line: number;
  col: number;
}

interface Entry {
  value: number;
  key?: number;
}

/** Finds positions of values and keys in one JSONC text. */
export interface Locator {
  /**
   * The position of the value at `path` (or of its key with `key`); a path the
   * text lacks falls back to its nearest present ancestor.
   */
  locate(path: Path, key?: boolean): Position;
  /** The position of an offset into the text. */
  position(offset: number): Position;
}

/**
 * The position of `offset` in `text`, for syntax errors (no indexing needed).
 * @param text Any text.
 * @param offset A UTF-16 offset; past the end means the end.
 */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, Math.min(offset, text.length));
  const lineStart = before.lastIndexOf("\n") + 1;
  return {
    line: before.split("\n").length,
    col: before.length - lineStart + 1,
  };
}

/** Builds a {@linkcode Locator} over JSONC text that parses. */
export function indexJsonc(text: string): Locator {
  const entries = new Map<string, Entry>();
  new Scanner(text, entries).scanDocument();
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n") lineStarts.push(i + 1);
  }
  const position = (offset: number): Position => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: offset - lineStarts[low] + 1 };
  };
  const locate = (path: Path, key = false): Position => {
    for (let length = path.length; length >= 0; length--) {
      const entry = entries.get(JSON.stringify(path.slice(0, length)));
      if (!entry) continue;
      const exact = length === path.length;
      return position(
        exact && key && entry.key !== undefined ? entry.key : entry.value,
      );
    }
    return position(0);
  };
  return { locate, position };
}

class Scanner {
  #pos = 0;
  constructor(
    private readonly text: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  scanDocument(): void {
    this.#value([], undefined);
  }

  #value(path: (string | number)[], key: number | undefined): void {
    this.#skip();
    this.entries.set(JSON.stringify(path), { value: this.#pos, key });
    const char = this.text[this.#pos];
    if (char === "{") this.#object(path);
    else if (char === "[") this.#array(path);
    else if (char === '"') this.#string();
    else this.#literal();
  }

  #object(path: (string | number)[]): void {
    this.#pos++;
    for (;;) {
      this.#skip();
      if (this.text[this.#pos] !== '"') break;
      const keyOffset = this.#pos;
      const name = JSON.parse(this.text.slice(keyOffset, this.#string()));
      this.#skip();
      this.#pos++; // ':'
      this.#value([...path, name], keyOffset);
      this.#skip();
      if (this.text[this.#pos] === ",") this.#pos++;
    }
    this.#pos++; // '}'
  }

  #array(path: (string | number)[]): void {
    this.#pos++;
    for (let index = 0;; index++) {
      this.#skip();
      if (this.text[this.#pos] === "]" || this.#pos >= this.text.length) break;
      this.#value([...path, index], undefined);
      this.#skip();
      if (this.text[this.#pos] === ",") this.#pos++;
    }
    this.#pos++; // ']'
  }

  /** Skips a string starting at the current `"`; returns the offset after it. */
  #string(): number {
    let pos = this.#pos + 1;
    while (pos < this.text.length && this.text[pos] !== '"') {
      pos += this.text[pos] === "\\" ? 2 : 1;
    }
    this.#pos = pos + 1;
    return this.#pos;
  }

  #literal(): void {
    const start = this.#pos;
    while (
      this.#pos < this.text.length && !/[\s,\]}/]/.test(this.text[this.#pos])
    ) this.#pos++;
    if (this.#pos === start) this.#pos++; // never stall, whatever the text
  }

  /** Skips whitespace and comments. */
  #skip(): void {
    const text = this.text;
    for (;;) {
      if (/\s/.test(text[this.#pos] ?? "")) this.#pos++;
      else if (text.startsWith("//", this.#pos)) {
        const end = text.indexOf("\n", this.#pos);
        this.#pos = end < 0 ? text.length : end;
      } else if (text.startsWith("/*", this.#pos)) {
        const end = text.indexOf("*/", this.#pos + 2);
        this.#pos = end < 0 ? text.length : end + 2;
      } else return;
    }
  }
}

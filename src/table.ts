/**
 * Plain-text tables for human output. Pure.
 * @module
 */

/**
 * Lays out rows as left-aligned columns separated by two spaces; the last column
 * is not padded.
 * @param rows The header row first, then the data rows.
 * @returns The lines, each ending with a newline.
 * @example
 * ```ts
 * formatTable([["A", "B"], ["long", "x"]]); // "A     B\nlong  x\n"
 * ```
 */
export function formatTable(rows: readonly (readonly string[])[]): string {
  let text = "";
  for (const line of tableLines(rows)) text += `${line}\n`;
  return text;
}

/**
 * The widths of a table's columns: each its longest cell.
 * @param rows The rows.
 * @returns One width per column.
 * @example
 * ```ts
 * tableWidths([["A", "B"], ["long", "x"]]); // [4, 1]
 * ```
 */
export function tableWidths(rows: Iterable<readonly string[]>): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.length));
  }
  return widths;
}

/**
 * The lines of {@linkcode formatTable}, without their line ends, one at a time
 * (a wave's summary has a line per run: it is printed without ever being one
 * text).
 * @param rows The header row first, then the data rows; read twice unless
 *   `widths` is given, so rows made as they are read will do.
 * @param widths The columns' widths. @default {tableWidths(rows)}
 * @returns The lines, trailing spaces trimmed.
 * @example
 * ```ts
 * [...tableLines([["A", "B"], ["long", "x"]])]; // ["A     B", "long  x"]
 * ```
 */
export function* tableLines(
  rows: Iterable<readonly string[]>,
  widths: readonly number[] = tableWidths(rows),
): Generator<string> {
  for (const row of rows) {
    yield row.map((cell, i) =>
      i === row.length - 1 ? cell : cell.padEnd(widths[i])
    ).join("  ").trimEnd();
  }
}

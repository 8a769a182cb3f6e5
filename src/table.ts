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
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.length));
  }
  return rows
    .map((row) =>
      row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i]))
        .join("  ")
    )
    .map((line) => line.trimEnd() + "\n")
    .join("");
}

/**
 * The text of `JSON.stringify(record, replacer, 2)` for a record with a long
 * list in it (a decision of 30,000 members), in pieces of a few kilobytes, so
 * that writing it never holds the whole text, its copies and its encoding at
 * once. Pure.
 * @module
 */

/** A replacer that looks at the key only, as `maskingReplacer` does. */
export type KeyReplacer = (key: string, value: unknown) => unknown;

/** How many items of a list one piece holds. */
export const PIECE_ITEMS = 64;

/**
 * Yields `JSON.stringify(record, replacer, 2)` in pieces: the record's fields in
 * order, a list field's items {@linkcode PIECE_ITEMS} at a time, each batch
 * written by one `JSON.stringify` (so the text is made once, not per item and
 * again to indent it). The pieces joined are that text exactly, for plain
 * data (no `toJSON` at the top level) and a replacer that leaves the key `""`
 * alone; the replacer is called with the key of each field and the index of
 * each item, as `JSON.stringify` calls it.
 * @param record A plain object.
 * @param replacer The replacer. @default {none}
 * @returns The pieces, in order.
 * @example
 * ```ts
 * [...jsonPieces({ a: [1, 2] })].join(""); // '{\n  "a": [\n    1,\n    2\n  ]\n}'
 * ```
 */
export function* jsonPieces(
  record: object,
  replacer: KeyReplacer = (_key, value) => value,
): Generator<string> {
  const fields = Object.entries(record)
    .map(([key, value]) => [key, replacer(key, value)] as const)
    .filter(([, value]) => isWritten(value));
  if (fields.length === 0) {
    yield "{}";
    return;
  }
  let piece = "{\n";
  for (const [n, [key, value]] of fields.entries()) {
    piece += `  ${JSON.stringify(key)}: `;
    if (Array.isArray(value) && value.length > 0) {
      yield `${piece}[\n`;
      yield* listItems(key, value, replacer);
      piece = "\n  ]";
    } else piece += indented(value, replacer);
    piece += n === fields.length - 1 ? "\n}" : ",\n";
  }
  yield piece;
}

/**
 * The items of the list field `key`, two levels deep, joined by `,\n`: each
 * batch is written as the record `{ key: batch }` would be, its first and
 * last lines cut.
 */
function* listItems(
  key: string,
  list: readonly unknown[],
  replacer: KeyReplacer,
): Generator<string> {
  const head = `{\n  ${JSON.stringify(key)}: [\n`.length;
  const tail = "\n  ]\n}".length;
  for (let start = 0; start < list.length; start += PIECE_ITEMS) {
    const batch = list.slice(start, start + PIECE_ITEMS);
    const wrapper = { [key]: batch };
    const text = JSON.stringify(
      wrapper,
      function (this: unknown, name: string, value: unknown) {
        // The wrapper and the batch were replaced already, as the field;
        // an item's key is its index in the whole list.
        if (this === wrapper || value === wrapper) return value;
        return replacer(
          this === batch ? String(start + Number(name)) : name,
          value,
        );
      },
      2,
    );
    if (start > 0) yield ",\n";
    yield text.slice(head, text.length - tail);
  }
}

/** Whether `JSON.stringify` writes a field of this value (it leaves out the rest). */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" &&
    typeof value !== "symbol";
}

/** A field's text with its inner lines indented one level. */
function indented(value: unknown, replacer: KeyReplacer): string {
  return JSON.stringify(value, replacer, 2).replaceAll("\n", "\n  ");
}

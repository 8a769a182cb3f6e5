/**
 * Finds where a JSONC text nests deeper than a bound, before it is parsed
 * (SPEC.md §14): the parser recurses, so a text nested tens of thousands deep
 * would exhaust the stack. One linear scan that skips strings and comments. Pure.
 * @module
 */

/**
 * The offset of the first `[` or `{` that opens a level deeper than `max`.
 * @param text A JSONC text (possibly invalid; the parser reports that).
 * @param max The deepest level allowed.
 * @returns The offset, or `undefined` when the text nests no deeper than `max`.
 * @example
 * ```ts
 * tooDeepAt("[[1]]", 1); // 1
 * tooDeepAt('{"a": "[[["}', 1); // undefined
 * ```
 */
export function tooDeepAt(text: string, max: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // "
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) { // //
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) { // /*
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 0x5b || c === 0x7b) { // [ {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) { // ] }
      depth--;
    }
  }
  return undefined;
}

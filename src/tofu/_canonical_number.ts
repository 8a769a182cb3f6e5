/**
 * The canonical text of a JSON number, computed on its decimal digits so no
 * precision is lost: equal values get equal text (`1.50`, `1.5`, `15e-1`), and
 * different values never share one, however many digits they have. Pure.
 * @module
 */

const LEXEME = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/;

/**
 * Writes a JSON number lexeme in canonical form: the form JavaScript's
 * `Number.prototype.toString` uses (plain digits up to 21 places, an exponent
 * beyond), applied to the exact decimal value. So every number a double holds
 * exactly reads as `JSON.stringify` would write it, and longer ones keep every
 * digit. Negative zero is `0`.
 * @param lexeme A JSON number, e.g. `-12.50e3`.
 * @returns The canonical text, or `undefined` when `lexeme` is not a JSON number
 *   or its exponent has more than nine digits (no plan holds such a number;
 *   refusing it keeps the arithmetic exact).
 * @example
 * ```ts
 * canonicalNumber("1.50"); // "1.5"
 * canonicalNumber("12345678901234567891"); // "12345678901234567891"
 * canonicalNumber("1e21"); // "1e+21"
 * ```
 */
export function canonicalNumber(lexeme: string): string | undefined {
  const match = LEXEME.exec(lexeme);
  if (match === null) return undefined;
  const [, sign, whole, fraction = "", expSign, expDigits = "0"] = match;
  const expText = expDigits.replace(/^0+(?=.)/, "");
  if (expText.length > 9) return undefined;
  const significant = `${whole}${fraction}`.replace(/^0+/, "");
  if (significant === "") return "0";
  const digits = significant.replace(/0+$/, "");
  const exponent = (expSign === "-" ? -1 : 1) * Number(expText) -
    fraction.length + (significant.length - digits.length);
  const k = digits.length;
  const n = k + exponent;
  const minus = sign === "-" ? "-" : "";
  if (k <= n && n <= 21) return minus + digits + "0".repeat(n - k);
  if (0 < n && n <= 21) {
    return `${minus}${digits.slice(0, n)}.${digits.slice(n)}`;
  }
  if (-6 < n && n <= 0) return `${minus}0.${"0".repeat(-n)}${digits}`;
  const e = n - 1;
  const mantissa = k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${minus}${mantissa}e${e < 0 ? "-" : "+"}${Math.abs(e)}`;
}

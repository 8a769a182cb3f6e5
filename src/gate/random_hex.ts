/**
 * The randomness seam of the ledger: record ids and temporary file names take their
 * random part from an injected `RandomBytes`, so tests can be deterministic.
 * `webRandomBytes` (Web Crypto) is the default. It does not decide what ids look like.
 * @module
 */

/** Returns `length` random bytes. */
export type RandomBytes = (length: number) => Uint8Array;

/**
 * Random bytes from the Web Crypto API (`crypto.getRandomValues`).
 * @param length How many bytes, at most 65536.
 * @returns Fresh random bytes.
 */
export function webRandomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/**
 * Returns `bytes` random bytes as lowercase hex (twice as many digits).
 * @param bytes How many random bytes to draw.
 * @param random Where the bytes come from.
 * @returns Lowercase hex, `2 * bytes` digits long.
 * @example
 * ```ts
 * randomHex(2, () => new Uint8Array([1, 171])); // "01ab"
 * ```
 */
export function randomHex(
  bytes: number,
  random: RandomBytes = webRandomBytes,
): string {
  const drawn = random(bytes);
  if (drawn.length !== bytes) {
    throw new Error(
      `random source returned ${drawn.length} bytes, expected ${bytes}`,
    );
  }
  let hex = "";
  for (const byte of drawn) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * A deterministic `RandomBytes` for tests: a counter, so every draw differs.
 * @param seed The first value of the counter.
 * @returns A source whose successive draws are distinct.
 * @example
 * ```ts
 * const random = counterRandomBytes();
 * randomHex(2, random); // "0000"
 * randomHex(2, random); // "0001"
 * ```
 */
export function counterRandomBytes(seed = 0): RandomBytes {
  let next = seed;
  return (length) => {
    const out = new Uint8Array(length);
    let value = next++;
    for (let i = length - 1; i >= 0 && value > 0; i--) {
      out[i] = value % 256;
      value = Math.floor(value / 256);
    }
    return out;
  };
}

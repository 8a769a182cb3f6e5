/**
 * Reads a forge answer's body with a size limit and parses it as untrusted JSON
 * (SPEC.md §13, §14). It stops reading at the limit instead of buffering whatever
 * the server sends; it knows nothing of what the JSON should contain.
 * @module
 */

/** The body was larger than the limit. */
export class TooLargeError extends Error {
  /**
   * Makes the error.
   * @param maxBytes The limit that was passed.
   */
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = "TooLargeError";
  }
}

/**
 * Reads the body as UTF-8 text, at most `maxBytes` of it; the stream is cancelled
 * as soon as the limit is passed.
 * @param response The answer.
 * @param maxBytes The most bytes read.
 * @returns The text.
 * @throws {TooLargeError} When the body is longer than `maxBytes`.
 */
export async function readLimitedText(
  response: Response,
  maxBytes: number,
): Promise<string> {
  if (response.body === null) return "";
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel();
    throw new TooLargeError(maxBytes);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new TooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Parses an answer's text as JSON; an empty body is `undefined`.
 * @param text The body.
 * @returns The parsed value (`unknown`: check its shape before use).
 * @throws {SyntaxError} When the text is not JSON.
 * @example
 * ```ts
 * parseJsonBody(' {"a":1} '); // { a: 1 }
 * parseJsonBody(""); // undefined
 * ```
 */
export function parseJsonBody(text: string): unknown {
  return text.trim() === "" ? undefined : JSON.parse(text);
}

/**
 * A bounded reader of SSH wire data (RFC 4251 §5: uint32, string, mpint): every
 * length is checked against what is left and against a per-field limit before
 * anything is read. Private to `src/seal/`.
 * Base64 here is strict standard base64 (RFC 4648 §4, padded): decoding
 * refuses anything but the alphabet and correct padding.
 * @module
 */

import { SealFormatError } from "./seal.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads SSH wire fields from one blob, front to back. */
export class SshReader {
  readonly #bytes: Uint8Array;
  readonly #what: string;
  #at = 0;

  /**
   * @param bytes The blob.
   * @param what What the blob is, for messages (`the SSH signature`).
   */
  constructor(bytes: Uint8Array, what: string) {
    this.#bytes = bytes;
    this.#what = what;
  }

  /** Fails with `<what> <problem>`. */
  fail(problem: string): never {
    throw new SealFormatError(`${this.#what} ${problem}`);
  }

  /**
   * Reads `count` raw bytes.
   * @param count How many.
   * @param field The field's name, for messages.
   * @returns A view of the bytes.
   */
  raw(count: number, field: string): Uint8Array {
    if (count > this.#bytes.length - this.#at) {
      this.fail(`is cut short in "${field}"`);
    }
    const bytes = this.#bytes.subarray(this.#at, this.#at + count);
    this.#at += count;
    return bytes;
  }

  /**
   * Reads a big-endian uint32.
   * @param field The field's name, for messages.
   * @returns The number.
   */
  uint32(field: string): number {
    const b = this.raw(4, field);
    return ((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3];
  }

  /**
   * Reads a string (uint32 length, then that many bytes).
   * @param field The field's name, for messages.
   * @param max The most bytes the field may have.
   * @returns A view of the bytes.
   */
  string(field: string, max: number): Uint8Array {
    const length = this.uint32(field);
    if (length > max) {
      this.fail(`has a "${field}" of ${length} bytes (at most ${max})`);
    }
    return this.raw(length, field);
  }

  /**
   * Reads a string that must be UTF-8 text.
   * @param field The field's name, for messages.
   * @param max The most bytes the field may have.
   * @returns The text.
   */
  text(field: string, max: number): string {
    const bytes = this.string(field, max);
    try {
      return utf8.decode(bytes);
    } catch {
      return this.fail(`has a "${field}" that is not UTF-8`);
    }
  }

  /**
   * Reads a positive mpint (two's complement, big-endian) and returns its
   * magnitude without leading zero bytes. Extra leading zeros are tolerated, as
   * OpenSSH does; a negative number or zero is refused.
   * @param field The field's name, for messages.
   * @param maxBytes The most bytes the magnitude may have.
   * @returns The magnitude, at least one byte, first byte non-zero.
   */
  mpint(field: string, maxBytes: number): Uint8Array {
    const bytes = this.string(field, maxBytes + 1);
    if (bytes.length > 0 && bytes[0] >= 0x80) {
      this.fail(`has a negative "${field}"`);
    }
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start++;
    const magnitude = bytes.subarray(start);
    if (magnitude.length === 0) this.fail(`has a zero "${field}"`);
    if (magnitude.length > maxBytes) {
      this.fail(`has a "${field}" longer than ${maxBytes} bytes`);
    }
    return magnitude;
  }

  /** Fails unless every byte was read. */
  end(): void {
    if (this.#at !== this.#bytes.length) {
      this.fail(`has ${this.#bytes.length - this.#at} bytes of trailing data`);
    }
  }
}

/**
 * Builds SSH wire data: strings with their uint32 length.
 * @param parts Raw byte runs (`Uint8Array`) or strings (`{ string: bytes }`).
 * @returns The concatenation.
 */
export function sshWire(
  parts: readonly (Uint8Array | { string: Uint8Array | string })[],
): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    if (part instanceof Uint8Array) {
      chunks.push(part);
      continue;
    }
    const body = typeof part.string === "string"
      ? encoder.encode(part.string)
      : part.string;
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, body.length);
    chunks.push(length, body);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

const STRICT =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes padded standard base64.
 * @param text The base64 text, no whitespace.
 * @param what What the text is, for the error message.
 * @returns The bytes.
 * @throws {SealFormatError} When the text is not padded standard base64.
 */
export function decodeBase64(text: string, what: string): Uint8Array {
  if (!STRICT.test(text)) {
    throw new SealFormatError(`${what} is not valid base64`);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Encodes bytes as base64.
 * @param bytes The bytes.
 * @param padded Whether to keep the `=` padding.
 * @returns Standard base64 (padded unless `padded` is false).
 */
export function encodeBase64(bytes: Uint8Array, padded = true): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) {
    binary += String.fromCharCode(bytes[i]);
  }
  const text = btoa(binary);
  return padded ? text : text.replace(/=+$/, "");
}

/**
 * Encodes bytes as unpadded base64url (for JWK).
 * @param bytes The bytes.
 * @returns base64url without padding.
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes, false).replaceAll("+", "-").replaceAll("/", "_");
}

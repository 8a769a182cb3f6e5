/**
 * Strict standard base64 (RFC 4648 §4, padded) for SSH wire data: decoding refuses
 * anything but the alphabet and correct padding. Private to `src/seal/`.
 * @module
 */

import { SealFormatError } from "./seal_format_error.ts";

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

/**
 * The one error a forge client throws (SPEC.md §13): a single line naming the
 * request that failed and why, with every credential masked. It owns the masking
 * of secrets in text; it knows nothing of HTTP.
 * @module
 */

import { maskCredentials } from "../console/visible.ts";

/** Why a forge request failed. */
export type ForgeErrorKind =
  /** The forge answered with a non-success status. */
  | "http"
  /** The connection failed (DNS, refused, reset). */
  | "network"
  /** No complete answer within the time allowed. */
  | "timeout"
  /** Rate limited for longer than chant-wave is willing to wait. */
  | "rate-limited"
  /** The answer was not the JSON shape the forge documents. */
  | "bad-answer"
  /** The answer was larger than chant-wave reads. */
  | "too-large"
  /** The forge answered with a redirect (chant-wave never follows one with a token). */
  | "redirect";

/**
 * A failed forge request. The message is one line, starts with the method and
 * path, and never contains a token or URL credentials.
 */
export class ForgeError extends Error {
  /** Why it failed. */
  readonly kind: ForgeErrorKind;
  /** The HTTP status of the last answer, when one came back. */
  readonly status?: number;

  /**
   * Makes a forge error.
   * @param kind Why it failed.
   * @param message One line, already masked (see {@linkcode maskSecrets}).
   * @param status The last HTTP status, when an answer came back.
   */
  constructor(kind: ForgeErrorKind, message: string, status?: number) {
    super(message);
    this.name = "ForgeError";
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/**
 * Masks secrets in a message: every occurrence of the given values becomes
 * `***`, URLs are masked as `maskCredentials` masks them, and line breaks and other
 * control characters become spaces so the message stays one line.
 * @param text Any message (a network error's, a forge's `message` field).
 * @param secrets Values that must not appear (the token); empty ones are ignored.
 * @returns The masked, single-line text.
 * @example
 * ```ts
 * maskSecrets("GET https://ci:t0k@h/x: t0k rejected\n", ["t0k"]);
 * // "GET https://***@h/x: *** rejected"
 * ```
 */
export function maskSecrets(
  text: string,
  secrets: readonly string[],
): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== "") out = out.split(secret).join("***");
  }
  // deno-lint-ignore no-control-regex
  return maskCredentials(out).replace(/[\x00-\x1f\x7f]+/g, " ").trim();
}

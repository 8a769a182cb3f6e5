/**
 * The one form of a full commit id chant-wave accepts from anywhere (a record, a
 * decision, a forge answer, CI's environment): 40 (SHA-1) or 64 (SHA-256)
 * lowercase hex digits. Abbreviations and revisions are git's business, not
 * this pattern's. Pure.
 * @module
 */

/** A full commit sha: 40 or 64 lowercase hex digits. */
export const FULL_SHA: RegExp = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** How messages name {@linkcode FULL_SHA}. */
export const FULL_SHA_FORM = "a full commit sha";

/**
 * Whether `value` is a full commit sha.
 * @param value Anything.
 * @returns `true` for 40 or 64 lowercase hex digits.
 * @example
 * ```ts
 * isFullSha("6dcb09b5b57875f334f61aebed695e2e4193db5e"); // true
 * isFullSha("6dcb09b"); // false
 * ```
 */
export function isFullSha(value: unknown): value is string {
  return typeof value === "string" && FULL_SHA.test(value);
}

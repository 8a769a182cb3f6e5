/**
 * The set digest of SPEC.md §4.3: one `sha256:` digest over a wave's members
 * (target and plan digest only), which the gate binds to. Pure and synchronous; it
 * does not read plan files or validate the members' own digests.
 * @module
 */

import { createHash } from "node:crypto";

/** A digest as chant-wave writes it: `sha256:` and 64 lowercase hex digits. */
export const DIGEST_PATTERN: RegExp = /^sha256:[0-9a-f]{64}$/;

/** How messages name {@linkcode DIGEST_PATTERN}. */
export const DIGEST_FORM = "sha256:<64 lowercase hex>";

/** The part of a member the set digest covers. */
export interface DigestMember {
  /** The run's target, unique in the wave. */
  readonly target: string;
  /** The run's plan digest, as written by its plan command. */
  readonly planDigest: string;
}

/**
 * Computes the set digest of a wave's members: keeps `target` and `planDigest`,
 * sorts by target in UTF-16 code unit order, serialises
 * `{"kind":"change-set","subject":[{"member":…,"planDigest":…},…]}` with no
 * whitespace and returns `sha256:` + the lowercase hex SHA-256 of its UTF-8 bytes.
 * The result does not depend on the members' order or on their other fields.
 * @param members The wave's members, in any order; possibly none.
 * @returns The set digest, `sha256:` + 64 lowercase hex.
 * @throws {Error} When two members have the same target.
 * @example
 * ```ts
 * setDigest([]);
 * // "sha256:1fa77cc2ae4f64b25382f00ebcf74210c66068d22785dbd5192eac122050ab1e"
 * ```
 */
export function setDigest(members: readonly DigestMember[]): string {
  const sorted = members
    .map(({ target, planDigest }) => ({ target, planDigest }))
    .sort((a, b) => a.target < b.target ? -1 : a.target > b.target ? 1 : 0);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].target === sorted[i - 1].target) {
      throw new Error(
        `cannot compute the set digest: target ${
          JSON.stringify(sorted[i].target)
        } appears twice`,
      );
    }
  }
  const subject = sorted.map((m) => ({
    member: m.target,
    planDigest: m.planDigest,
  }));
  const text = JSON.stringify({ kind: "change-set", subject });
  return "sha256:" + createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Tells whether `text` is a digest of the form `sha256:` + 64 lowercase hex digits.
 * @param text Anything.
 * @returns `true` for a well-formed digest.
 * @example
 * ```ts
 * isDigest("sha256:" + "a".repeat(64)); // true
 * isDigest("sha256:" + "A".repeat(64)); // false
 * ```
 */
export function isDigest(text: unknown): text is string {
  return typeof text === "string" && DIGEST_PATTERN.test(text);
}

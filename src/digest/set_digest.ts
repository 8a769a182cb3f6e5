/**
 * The set digest of SPEC.md §4.3: one `sha256:` digest over a wave's members
 * (target and plan digest only), which the gate binds to. Pure and synchronous; it
 * does not read plan files or validate the members' own digests.
 * @module
 */

import { createDigest } from "./hash.ts";

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
 * @param hashed Told the length of each piece of the text as it is hashed (a
 *   job's collection pacer: the text of a large wave is megabytes).
 * @returns The set digest, `sha256:` + 64 lowercase hex.
 * @throws {Error} When two members have the same target.
 * @example
 * ```ts
 * setDigest([]);
 * // "sha256:1fa77cc2ae4f64b25382f00ebcf74210c66068d22785dbd5192eac122050ab1e"
 * ```
 */
export function setDigest(
  members: readonly DigestMember[],
  hashed?: (chars: number) => void,
): string {
  const sorted = [...members].sort((a, b) =>
    a.target < b.target ? -1 : a.target > b.target ? 1 : 0
  );
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].target === sorted[i - 1].target) {
      throw new Error(
        `cannot compute the set digest: target ${
          JSON.stringify(sorted[i].target)
        } appears twice`,
      );
    }
  }
  // The text is hashed a batch of members at a time, through one buffer,
  // never held whole: a wave of 30,000 runs would otherwise build, copy and
  // encode megabytes at once (and bun's hash of a string allocates per call).
  const hash = createDigest("sha256");
  let buffer = new Uint8Array(64 * 1024);
  const update = (text: string, from = 0, cut = 0) => {
    // UTF-16 to UTF-8 takes at most 3 bytes per code unit.
    if (text.length * 3 > buffer.length) {
      buffer = new Uint8Array(text.length * 3);
    }
    const { written } = encoder.encodeInto(text, buffer);
    hash.update(buffer.subarray(from, written - cut));
    hashed?.(text.length);
  };
  update('{"kind":"change-set","subject":[');
  for (let start = 0; start < sorted.length; start += BATCH) {
    const subject = sorted.slice(start, start + BATCH).map((
      { target, planDigest },
    ) => ({ member: target, planDigest }));
    if (start > 0) update(",");
    // The batch's list without its brackets (one byte each).
    update(JSON.stringify(subject), 1, 1);
  }
  update("]}");
  return "sha256:" + hash.hex();
}

const encoder = new TextEncoder();

/** How many members are serialised at once. */
const BATCH = 128;

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

/**
 * The seal of a sealed approval (SPEC.md §12) as stored in the approval record,
 * the SSHSIG namespace chant-wave signs in, the one form principals are
 * compared in (§12.1: NFKC, trimmed, lowercased), and the one error the seal
 * parsers throw: a signature, a public key or a key blob that is not well
 * formed ends as it, never as another exception. Pure.
 * @module
 */

/** The SSHSIG namespace of chant-wave approvals (`ssh-keygen -Y sign -n chant-wave`). */
export const SEAL_NAMESPACE = "chant-wave";

/** A sealed approval's signature, as stored in the approval record. */
export interface Seal {
  /** Who signed, as the approver claims it; checked against the signers file. */
  readonly principal: string;
  /** The signing key as one line: `<key type> <base64 key>` (a comment is allowed). */
  readonly publicKey: string;
  /** The armored SSHSIG (`-----BEGIN SSH SIGNATURE-----` …) over the approval payload. */
  readonly signature: string;
  /**
   * The git ledger's counter (`seq`, the next number) at the tip the approver
   * read before signing, signed with the rest: the approval reached the
   * branch at that number or later, so a job applying under it (or under a
   * copy of it) checks the branch's history from there. Absent on the
   * directory ledger.
   */
  readonly ledger?: number;
}

/**
 * Malformed seal data: an armored SSH signature, an SSH public key line or a wire
 * blob that breaks its format. The message is one line, e.g.
 * `the SSH signature is cut short in "namespace"`.
 */
export class SealFormatError extends Error {
  /**
   * Makes a format error.
   * @param message One line, sentence case, values in quotes.
   */
  constructor(message: string) {
    super(message);
    this.name = "SealFormatError";
  }
}

/**
 * Normalises a principal for comparison: Unicode NFKC, surrounding white space
 * removed, lowercased (locale-independent). Applied alike to a seal's principal,
 * to allowed-signers patterns and to approver rules.
 * @param principal A principal as written, e.g. ` Ann@Example.COM`.
 * @returns The comparable form, e.g. `ann@example.com`.
 * @example
 * ```ts
 * normalisePrincipal(" Ａｎｎ@Example.com "); // "ann@example.com"
 * ```
 */
export function normalisePrincipal(principal: string): string {
  return principal.normalize("NFKC").trim().toLowerCase();
}

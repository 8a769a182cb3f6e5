/**
 * The seal of a sealed approval (SPEC.md §12) as stored in the approval record,
 * and the SSHSIG namespace chant-wave signs in. Types and constants only.
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

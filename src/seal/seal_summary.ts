/**
 * What a seal claims, for listings (`ledger log`): its principal, normalised, and
 * its key's fingerprint as `ssh-keygen -l` prints it. It verifies nothing; a
 * sealed gate does that against the signers file at base (`verify_seal.ts`).
 * @module
 */

import { normalisePrincipal, type Seal, SealFormatError } from "./seal.ts";
import { parseSshPublicKeyLine, sshKeyFingerprint } from "./ssh_public_key.ts";

/** Who a seal names, and with which key. */
export interface SealSummary {
  /** The seal's principal, normalised (NFKC, trimmed, lowercased). */
  principal: string;
  /** The key's fingerprint (`SHA256:…`), or `unreadable key`. */
  fingerprint: string;
}

/**
 * Summarises a seal without verifying it.
 * @param seal The seal as stored in an approval record.
 * @returns Its principal and its key's fingerprint.
 * @throws {Error} Only when WebCrypto lacks SHA-256 (a bug of the build).
 * @example
 * ```ts
 * await summariseSeal(record.seal);
 * // { principal: "ann@example.com", fingerprint: "SHA256:…" }
 * ```
 */
export async function summariseSeal(seal: Seal): Promise<SealSummary> {
  let fingerprint = "unreadable key";
  try {
    fingerprint = await sshKeyFingerprint(
      parseSshPublicKeyLine(seal.publicKey),
    );
  } catch (error) {
    if (!(error instanceof SealFormatError)) throw error;
  }
  return { principal: normalisePrincipal(seal.principal), fingerprint };
}

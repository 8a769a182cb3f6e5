/**
 * The armored SSH signature format of OpenSSH (`ssh-keygen -Y sign`, its
 * PROTOCOL.sshsig): parsing the armor and the blob with strict bounds, and
 * building the "signed data" a signature covers. Pure: it checks no signature
 * (that is `verify_seal.ts`) and trusts nothing it parses.
 * @module
 */

import { quote } from "../quote.ts";
import { decodeBase64, SshReader, sshWire } from "./_ssh_reader.ts";
import { SealFormatError } from "./seal.ts";
import {
  MAX_KEY_BLOB_BYTES,
  parseSshPublicKeyBlob,
  RSA_MAX_BITS,
  type SshPublicKey,
} from "./ssh_public_key.ts";

/** The most characters an armored signature may have (16 KiB). */
export const MAX_ARMORED_SIGNATURE = 16 * 1024;

/** The hash algorithms an SSHSIG may name for the message. */
export const SSHSIG_HASH_ALGORITHMS = ["sha256", "sha512"] as const;

/** A hash algorithm an SSHSIG may name for the message. */
export type SshsigHashAlgorithm = typeof SSHSIG_HASH_ALGORITHMS[number];

const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";
const MAGIC = new TextEncoder().encode("SSHSIG");
const MAX_TEXT_FIELD = 256;

/** The signature algorithm each key type must sign with. */
const SIGNATURE_ALGORITHM: Readonly<Record<SshPublicKey["type"], string>> = {
  "ssh-ed25519": "ssh-ed25519",
  "ecdsa-sha2-nistp256": "ecdsa-sha2-nistp256",
  "ssh-rsa": "rsa-sha2-512",
};

/** A parsed SSHSIG. */
export interface SshSignature {
  /** The key that made the signature. */
  readonly publicKey: SshPublicKey;
  /** The namespace the signature was made in (never empty). */
  readonly namespace: string;
  /** The reserved field, as bytes (covered by the signature; otherwise ignored). */
  readonly reserved: Uint8Array;
  /** The hash of the message inside the signed data. */
  readonly hashAlgorithm: SshsigHashAlgorithm;
  /** The signature algorithm, matching the key type (`rsa-sha2-512` for RSA). */
  readonly signatureAlgorithm: string;
  /** The signature proper: 64 bytes (Ed25519), the `(r, s)` mpint pair (ECDSA),
   * or the PKCS #1 v1.5 signature (RSA). */
  readonly signatureBytes: Uint8Array;
}

/**
 * Takes the base64 body out of the armor: the header first (after optional
 * leading whitespace), the footer last, `\n` or `\r\n` line ends.
 */
function armorBody(armored: string): string {
  const lines = armored.trim().split(/\r?\n/).map((line) => line.trim());
  if (lines[0] !== BEGIN) {
    throw new SealFormatError(
      `the SSH signature does not start with "${BEGIN}"`,
    );
  }
  if (lines.length < 3 || lines[lines.length - 1] !== END) {
    throw new SealFormatError(`the SSH signature does not end with "${END}"`);
  }
  return lines.slice(1, -1).join("");
}

/**
 * Parses an armored SSH signature (`-----BEGIN SSH SIGNATURE-----` …).
 * Refuses anything over {@linkcode MAX_ARMORED_SIGNATURE} characters, a version
 * other than 1, an empty namespace, a hash other than sha256/sha512, a key of an
 * unsupported type, a signature algorithm other than the key's (`rsa-sha2-512`
 * for RSA; the SHA-1 `ssh-rsa` and `rsa-sha2-256` are refused), and trailing data.
 * @param armored The armored text.
 * @returns The parsed signature.
 * @throws {SealFormatError} With a one-line reason when anything is malformed.
 * @example
 * ```ts
 * const sig = parseSshSignature(armoredText);
 * sig.namespace; // "chant-wave"
 * ```
 */
export function parseSshSignature(armored: string): SshSignature {
  if (typeof armored !== "string") {
    throw new SealFormatError("the SSH signature is not text");
  }
  if (armored.length > MAX_ARMORED_SIGNATURE) {
    throw new SealFormatError(
      `the SSH signature is longer than ${MAX_ARMORED_SIGNATURE} characters`,
    );
  }
  const blob = decodeBase64(armorBody(armored), "the SSH signature");
  const reader = new SshReader(blob, "the SSH signature");
  const magic = reader.raw(MAGIC.length, "magic");
  if (!magic.every((byte, i) => byte === MAGIC[i])) {
    reader.fail('does not start with "SSHSIG"');
  }
  const version = reader.uint32("version");
  if (version !== 1) reader.fail(`has version ${version}, not 1`);
  const publicKey = parseSshPublicKeyBlob(
    reader.string("publickey", MAX_KEY_BLOB_BYTES),
  );
  const namespace = reader.text("namespace", MAX_TEXT_FIELD);
  if (namespace === "") reader.fail("has an empty namespace");
  const reserved = reader.string("reserved", MAX_TEXT_FIELD);
  const hashAlgorithm = reader.text("hash_algorithm", MAX_TEXT_FIELD);
  if (!(SSHSIG_HASH_ALGORITHMS as readonly string[]).includes(hashAlgorithm)) {
    reader.fail(
      `names the hash ${quote(hashAlgorithm)}, not sha256 or sha512`,
    );
  }
  const inner = reader.string("signature", RSA_MAX_BITS / 8 + 64);
  reader.end();
  const sig = new SshReader(inner, "the SSH signature's signature");
  const signatureAlgorithm = sig.text("algorithm", MAX_TEXT_FIELD);
  const expected = SIGNATURE_ALGORITHM[publicKey.type];
  if (signatureAlgorithm !== expected) {
    sig.fail(
      `is made with ${
        quote(signatureAlgorithm)
      }; a ${publicKey.type} key must sign with "${expected}"`,
    );
  }
  const signatureBytes = sig.string("signature blob", RSA_MAX_BITS / 8);
  sig.end();
  return {
    publicKey,
    namespace,
    reserved,
    hashAlgorithm: hashAlgorithm as SshsigHashAlgorithm,
    signatureAlgorithm,
    signatureBytes,
  };
}

/**
 * Builds the data an SSHSIG signs: `"SSHSIG"`, then as strings the namespace, the
 * reserved field, the hash algorithm and the hash of the message.
 * @param signature The parsed signature (for namespace, reserved and hash name).
 * @param messageHash The message hashed with `signature.hashAlgorithm`.
 * @returns The bytes the key signed.
 */
export function sshsigSignedData(
  signature: SshSignature,
  messageHash: Uint8Array,
): Uint8Array {
  return sshWire([
    MAGIC,
    { string: signature.namespace },
    { string: signature.reserved },
    { string: signature.hashAlgorithm },
    { string: messageHash },
  ]);
}

/**
 * SSH public keys of the three types a seal may use (SPEC.md §12): the wire blob
 * (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4), the one-line text form
 * (`ssh-ed25519 AAAA… comment`), equality and the `SHA256:` fingerprint. Pure: it
 * neither reads files nor imports keys into WebCrypto.
 * @module
 */

import { quote } from "../quote.ts";
import { decodeBase64, encodeBase64, SshReader } from "./_ssh_reader.ts";
import { SealFormatError } from "./seal.ts";

/** The key types a seal may be made with. */
export const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ssh-rsa",
] as const;

/** A key type a seal may be made with. */
export type SshKeyType = typeof SSH_KEY_TYPES[number];

/** Key types OpenSSH knows that chant-wave does not verify. */
const UNSUPPORTED_KEY_TYPES: readonly string[] = [
  "ssh-dss",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
  "ssh-xmss@openssh.com",
];

/** The fewest and most bits an RSA modulus may have. */
export const RSA_MIN_BITS = 2048;
/** The most bits an RSA modulus may have (OpenSSH's own limit). */
export const RSA_MAX_BITS = 16384;

/** The most bytes a key blob may have (an RSA key of {@linkcode RSA_MAX_BITS}). */
export const MAX_KEY_BLOB_BYTES = 4096;

/** What every parsed key has. */
export interface SshKeyBlob {
  /** The key's wire blob, as it appears in a signature or a key line. */
  readonly blob: Uint8Array;
}

/** An Ed25519 public key. */
export interface Ed25519Key extends SshKeyBlob {
  /** The key type. */
  readonly type: "ssh-ed25519";
  /** The 32-byte public key. */
  readonly key: Uint8Array;
}

/** An ECDSA key on NIST P-256. */
export interface EcdsaP256Key extends SshKeyBlob {
  /** The key type. */
  readonly type: "ecdsa-sha2-nistp256";
  /** The uncompressed point: `0x04`, X (32 bytes), Y (32 bytes). */
  readonly point: Uint8Array;
}

/** An RSA public key. */
export interface RsaKey extends SshKeyBlob {
  /** The key type. */
  readonly type: "ssh-rsa";
  /** The public exponent, big-endian, no leading zero byte. */
  readonly e: Uint8Array;
  /** The modulus, big-endian, no leading zero byte. */
  readonly n: Uint8Array;
}

/** A parsed SSH public key of a supported type. */
export type SshPublicKey = Ed25519Key | EcdsaP256Key | RsaKey;

/**
 * Tells whether OpenSSH would read `name` as a key type (supported or not), which
 * is how an allowed-signers line tells its key from its options.
 * @param name A word of a key line.
 * @returns `true` for a key type name.
 * @example
 * ```ts
 * isKeyTypeName("ssh-ed25519"); // true
 * isKeyTypeName("ssh-ed25519-cert-v01@openssh.com"); // true
 * isKeyTypeName("namespaces=\"git\""); // false
 * ```
 */
export function isKeyTypeName(name: string): boolean {
  return (SSH_KEY_TYPES as readonly string[]).includes(name) ||
    UNSUPPORTED_KEY_TYPES.includes(name) ||
    /^[a-z0-9@.-]+-cert-v0[01]@openssh\.com$/.test(name);
}

function isSupported(type: string): type is SshKeyType {
  return (SSH_KEY_TYPES as readonly string[]).includes(type);
}

function unsupported(type: string): never {
  const shown = quote(type);
  throw new SealFormatError(
    `the key type ${shown} is not supported (only ${SSH_KEY_TYPES.join(", ")})`,
  );
}

function bitLength(magnitude: Uint8Array): number {
  return (magnitude.length - 1) * 8 + (32 - Math.clz32(magnitude[0]));
}

/**
 * Parses a public key's wire blob, refusing trailing data.
 * @param blob The blob (`string publickey` of an SSHSIG, or a key line's base64).
 * @returns The key.
 * @throws {SealFormatError} When the blob is malformed, of an unsupported type, or
 * an RSA key outside {@linkcode RSA_MIN_BITS}–{@linkcode RSA_MAX_BITS} bits.
 * @example
 * ```ts
 * const line = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9";
 * parseSshPublicKeyBlob(parseSshPublicKeyLine(line).blob).type; // "ssh-ed25519"
 * ```
 */
export function parseSshPublicKeyBlob(blob: Uint8Array): SshPublicKey {
  if (blob.length > MAX_KEY_BLOB_BYTES) {
    throw new SealFormatError(
      `the public key is longer than ${MAX_KEY_BLOB_BYTES} bytes`,
    );
  }
  const reader = new SshReader(blob, "the public key");
  const type = reader.text("key type", 64);
  if (!isSupported(type)) unsupported(type);
  let key: SshPublicKey;
  if (type === "ssh-ed25519") {
    const raw = reader.string("key", 32);
    if (raw.length !== 32) {
      reader.fail(`has an Ed25519 key of ${raw.length} bytes`);
    }
    key = { type, blob, key: raw };
  } else if (type === "ecdsa-sha2-nistp256") {
    const curve = reader.text("curve", 64);
    if (curve !== "nistp256") {
      reader.fail(
        `names the curve ${quote(curve)}, not "nistp256"`,
      );
    }
    const point = reader.string("point", 65);
    if (point.length !== 65 || point[0] !== 0x04) {
      reader.fail("has a P-256 point that is not 65 uncompressed bytes");
    }
    key = { type, blob, point };
  } else {
    const e = reader.mpint("e", 8);
    const n = reader.mpint("n", RSA_MAX_BITS / 8);
    const bits = bitLength(n);
    if (bits < RSA_MIN_BITS) {
      reader.fail(`is an RSA key of ${bits} bits (at least ${RSA_MIN_BITS})`);
    }
    if ((e[e.length - 1] & 1) === 0 || (e.length === 1 && e[0] < 3)) {
      reader.fail(
        "has an RSA exponent that is not an odd number of at least 3",
      );
    }
    key = { type, blob, e, n };
  }
  reader.end();
  return key;
}

/**
 * Parses a one-line public key: `<type> <base64> [comment]`, as in a `.pub` file.
 * @param line The line.
 * @returns The key.
 * @throws {SealFormatError} When the line is malformed (see {@linkcode parseSshKeyFields}).
 * @example
 * ```ts
 * parseSshPublicKeyLine("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9 me@host").type;
 * // "ssh-ed25519"
 * ```
 */
export function parseSshPublicKeyLine(line: string): SshPublicKey {
  const words = line.trim().split(/[ \t]+/);
  if (words.length < 2 || words[0] === "") {
    throw new SealFormatError(
      "the public key is not a line of the form '<key type> <base64 key>'",
    );
  }
  return parseSshKeyFields(words[0], words[1]);
}

/**
 * Parses the two fields of a key line: the type name and the base64 blob.
 * @param type The type the line names, e.g. `ssh-ed25519`.
 * @param base64 The blob in base64.
 * @returns The key.
 * @throws {SealFormatError} When the type is not supported, the base64 is bad,
 * the blob fails {@linkcode parseSshPublicKeyBlob}, or it is of another type.
 */
export function parseSshKeyFields(type: string, base64: string): SshPublicKey {
  if (!isSupported(type)) unsupported(type);
  const key = parseSshPublicKeyBlob(decodeBase64(base64, "the public key"));
  if (key.type !== type) {
    throw new SealFormatError(
      `the public key is named "${type}" but its data is "${key.type}"`,
    );
  }
  return key;
}

/**
 * Formats a key as one line: `<type> <base64>`, no comment.
 * @param key The key.
 * @returns The line.
 * @example
 * ```ts
 * formatSshPublicKey(parseSshPublicKeyLine("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9 me@host"));
 * // "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9"
 * ```
 */
export function formatSshPublicKey(key: SshPublicKey): string {
  return `${key.type} ${encodeBase64(key.blob)}`;
}

/**
 * Tells whether two keys are the same key (same wire blob).
 * @param a A key.
 * @param b Another key.
 * @returns `true` when their blobs are byte for byte equal.
 */
export function sameSshKey(a: SshPublicKey, b: SshPublicKey): boolean {
  if (a.blob.length !== b.blob.length) return false;
  return a.blob.every((byte, i) => byte === b.blob[i]);
}

/**
 * The key's fingerprint as `ssh-keygen -l` prints it: `SHA256:` and the unpadded
 * base64 of the SHA-256 of its blob.
 * @param key The key.
 * @returns The fingerprint, e.g. `SHA256:gPBpgh2+UrFJw7LlRnXaSjOUrzua4XCEWmOaQQ/AhK4`.
 */
export async function sshKeyFingerprint(key: SshPublicKey): Promise<string> {
  const hash = await globalThis.crypto.subtle.digest(
    "SHA-256",
    key.blob as Uint8Array<ArrayBuffer>,
  );
  return `SHA256:${encodeBase64(new Uint8Array(hash), false)}`;
}

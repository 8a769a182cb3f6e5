/**
 * Checks one raw SSH signature over some bytes with the runtime's WebCrypto
 * (`globalThis.crypto.subtle`, in Deno, Node 20+ and bun alike): Ed25519, ECDSA
 * P-256 with SHA-256, RSASSA-PKCS1-v1_5 with SHA-512. Private to `src/seal/`.
 * @module
 */

import { encodeBase64Url, SshReader } from "./_ssh_reader.ts";
import { SealFormatError } from "./seal.ts";
import type { SshPublicKey } from "./ssh_public_key.ts";

type Bytes = Uint8Array<ArrayBuffer>;

const P256_SCALAR_BYTES = 32;

/**
 * Verifies `signature` (the SSH signature blob's bytes for the key's algorithm)
 * over `data` with `key`.
 * @param key The signer's key.
 * @param signature Ed25519: 64 bytes; ECDSA: the `(r, s)` mpint pair; RSA: the
 * PKCS #1 v1.5 signature (shorter than the modulus is left-padded, as OpenSSH does).
 * @param data The signed data.
 * @returns Whether the signature verifies.
 * @throws {SealFormatError} When WebCrypto refuses the key (e.g. a point not on
 * the curve) or the ECDSA signature is malformed.
 * @throws {Error} When the runtime's WebCrypto lacks the algorithm (a bug of the
 * build, not of the seal).
 */
export async function verifyKeySignature(
  key: SshPublicKey,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  const check = webCryptoCheck(key, signature);
  if (check === undefined) return false;
  const cryptoKey = await importKey(key.type, check);
  return await globalThis.crypto.subtle.verify(
    check.verifyAlgorithm,
    cryptoKey,
    check.signature,
    copy(data),
  );
}

/** How WebCrypto checks one key type's signature. */
interface WebCryptoCheck {
  /** The key to import: raw bytes, or a JWK (RSA). */
  readonly keyData: Bytes | JsonWebKey;
  /** The algorithm to import the key with. */
  readonly importAlgorithm:
    | AlgorithmIdentifier
    | EcKeyImportParams
    | RsaHashedImportParams;
  /** The algorithm to verify with. */
  readonly verifyAlgorithm: AlgorithmIdentifier | EcdsaParams;
  /** The signature in WebCrypto's form. */
  readonly signature: Bytes;
}

/** The WebCrypto form of a key and its signature; `undefined` for a signature of impossible length. */
function webCryptoCheck(
  key: SshPublicKey,
  signature: Uint8Array,
): WebCryptoCheck | undefined {
  if (key.type === "ssh-ed25519") {
    if (signature.length !== 64) return undefined;
    return {
      keyData: copy(key.key),
      importAlgorithm: { name: "Ed25519" },
      verifyAlgorithm: { name: "Ed25519" },
      signature: copy(signature),
    };
  }
  if (key.type === "ecdsa-sha2-nistp256") {
    return {
      keyData: copy(key.point),
      importAlgorithm: { name: "ECDSA", namedCurve: "P-256" },
      verifyAlgorithm: { name: "ECDSA", hash: "SHA-256" },
      signature: ecdsaRawSignature(signature),
    };
  }
  if (signature.length > key.n.length) return undefined;
  const padded = new Uint8Array(key.n.length);
  padded.set(signature, key.n.length - signature.length);
  return {
    keyData: {
      kty: "RSA",
      n: encodeBase64Url(key.n),
      e: encodeBase64Url(key.e),
      ext: true,
    },
    importAlgorithm: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" },
    verifyAlgorithm: { name: "RSASSA-PKCS1-v1_5" },
    signature: padded,
  };
}

/** Imports a key, telling a runtime without the algorithm from a bad key. */
async function importKey(
  type: string,
  check: WebCryptoCheck,
): Promise<CryptoKey> {
  const subtle = globalThis.crypto.subtle;
  const { keyData, importAlgorithm } = check;
  try {
    return keyData instanceof Uint8Array
      ? await subtle.importKey("raw", keyData, importAlgorithm, false, [
        "verify",
      ])
      : await subtle.importKey("jwk", keyData, importAlgorithm, false, [
        "verify",
      ]);
  } catch (error) {
    const name = (error as { name?: unknown })?.name;
    if (name === "NotSupportedError") {
      throw new Error(
        `this runtime's WebCrypto cannot verify ${type} signatures`,
        { cause: error },
      );
    }
    throw new SealFormatError(`the ${type} public key is not a valid key`);
  }
}

/**
 * Turns the SSH ECDSA signature (`mpint r`, `mpint s`) into WebCrypto's raw form:
 * r and s as 32 bytes each, big-endian.
 */
function ecdsaRawSignature(signature: Uint8Array): Bytes {
  const reader = new SshReader(signature, "the ECDSA signature");
  const r = reader.mpint("r", P256_SCALAR_BYTES);
  const s = reader.mpint("s", P256_SCALAR_BYTES);
  reader.end();
  const raw = new Uint8Array(2 * P256_SCALAR_BYTES);
  raw.set(r, P256_SCALAR_BYTES - r.length);
  raw.set(s, 2 * P256_SCALAR_BYTES - s.length);
  return raw;
}

/** A copy on its own ArrayBuffer (WebCrypto wants `BufferSource` of an ArrayBuffer). */
function copy(bytes: Uint8Array): Bytes {
  return new Uint8Array(bytes);
}

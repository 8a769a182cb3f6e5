/**
 * Synchronous SHA-1 and SHA-256 of bytes and text (git's object ids,
 * chant-wave's `sha256:` digests): under Bun its native hasher
 * (`Bun.CryptoHasher`), elsewhere `node:crypto`'s `createHash` (through
 * `process.getBuiltinModule`), either looked up on first use, so that a
 * command that hashes nothing pays for neither (even touching
 * `Bun.CryptoHasher` costs the compiled binary's start about 2 ms of CPU). The same bytes give the same digest on
 * every runtime; text is hashed as UTF-8. It knows nothing of what it hashes.
 * @module
 */

/** The algorithms there are. */
export type HashName = "sha1" | "sha256";

/** A hash being fed. */
export interface Hash {
  /** Feeds bytes, or text as UTF-8. */
  update(data: Uint8Array | string): Hash;
  /** The digest in lowercase hex; the hash is spent after. */
  hex(): string;
}

/** What this module needs of Bun's hasher. */
interface BunHasher {
  update(data: Uint8Array | string): unknown;
  digest(encoding: "hex"): string;
}

/** What this module needs of `node:crypto`. */
interface NodeCrypto {
  createHash(name: string): {
    update(data: Uint8Array | string, encoding?: "utf8"): unknown;
    digest(encoding: "hex"): string;
  };
}

type BunHasherClass = new (name: HashName) => BunHasher;

/** Bun's hasher, looked up on first use (`null`: not under Bun). */
let bunHasher: BunHasherClass | null | undefined;
let nodeCrypto: NodeCrypto | undefined;

/** Bun's hasher, when running under Bun. */
function bunHasherClass(): BunHasherClass | null {
  return bunHasher ??=
    (globalThis as { Bun?: { CryptoHasher?: BunHasherClass } }).Bun
      ?.CryptoHasher ?? null;
}

/** `node:crypto`, loaded once, on first use. */
function loadNodeCrypto(): NodeCrypto {
  const process = (globalThis as {
    process?: { getBuiltinModule?: (name: string) => unknown };
  }).process;
  const crypto = process?.getBuiltinModule?.("node:crypto");
  if (crypto === undefined) {
    throw new Error("cannot hash: this runtime has no node:crypto");
  }
  return crypto as NodeCrypto;
}

/**
 * Starts a hash.
 * @param name `sha1` or `sha256`.
 * @returns The hash, to feed and finish with `hex()`.
 * @example
 * ```ts
 * createDigest("sha256").update("abc").hex(); // "ba7816bf…15ad"
 * ```
 */
export function createDigest(name: HashName): Hash {
  const Hasher = bunHasherClass();
  if (Hasher !== null) {
    const hasher = new Hasher(name);
    const hash: Hash = {
      update: (data) => (hasher.update(data), hash),
      hex: () => hasher.digest("hex"),
    };
    return hash;
  }
  const hasher = (nodeCrypto ??= loadNodeCrypto()).createHash(name);
  const hash: Hash = {
    update: (data) => (
      typeof data === "string"
        ? hasher.update(data, "utf8")
        : hasher.update(data), hash
    ),
    hex: () => hasher.digest("hex"),
  };
  return hash;
}

/**
 * The digest of one piece of bytes or text, in lowercase hex.
 * @param name `sha1` or `sha256`.
 * @param data The bytes, or text (hashed as UTF-8).
 * @returns The digest.
 * @example
 * ```ts
 * hashHex("sha1", ""); // "da39a3ee5e6b4b0d3255bfef95601890afd80709"
 * ```
 */
export function hashHex(name: HashName, data: Uint8Array | string): string {
  return createDigest(name).update(data).hex();
}

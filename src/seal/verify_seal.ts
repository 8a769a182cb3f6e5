/**
 * Verifies a sealed approval in-process (SPEC.md §12), the way
 * `ssh-keygen -Y verify -n chant-wave` would but without it: the seal's SSHSIG is
 * parsed, checked with WebCrypto over the approval payload, and its key must be
 * listed for the seal's principal in the signers file read at base, with
 * `namespaces`, `valid-after` and `valid-before` honoured at the verifying time.
 * Pure but for WebCrypto (no I/O); reading the signers file and counting
 * approvals are the gate's business.
 * @module
 */

import { quote } from "../quote.ts";
import { verifyKeySignature } from "./_webcrypto_verify.ts";
import type { AllowedSigner, AllowedSigners } from "./allowed_signers.ts";
import {
  approvalPayload,
  type ApprovalPayloadFields,
} from "./approval_payload.ts";
import {
  normalisePrincipal,
  type Seal,
  SEAL_NAMESPACE,
  SealFormatError,
} from "./seal.ts";
import { matchesPatternList, parsePatternList } from "./pattern_list.ts";
import {
  formatSshPublicKey,
  parseSshPublicKeyLine,
  sameSshKey,
  sshKeyFingerprint,
  type SshKeyType,
} from "./ssh_public_key.ts";
import {
  parseSshSignature,
  type SshSignature,
  sshsigSignedData,
} from "./sshsig.ts";

/** Why a seal was refused, as a closed vocabulary. */
export const SEAL_REFUSALS = [
  "not-signed",
  "malformed",
  "key-mismatch",
  "wrong-namespace",
  "bad-signature",
  "key-not-listed",
  "namespace-not-allowed",
  "not-yet-valid",
  "expired",
] as const;

/** One of {@linkcode SEAL_REFUSALS}. */
export type SealRefusal = typeof SEAL_REFUSALS[number];

/** The most characters a seal's principal may have. */
export const MAX_PRINCIPAL = 256;

/** A seal that verifies. */
export interface SealVerified {
  /** Always `true`. */
  readonly ok: true;
  /** The verified signer: the seal's principal, normalised (NFKC, trimmed, lowercased). */
  readonly principal: string;
  /** The key's fingerprint as `ssh-keygen -l` prints it (`SHA256:…`). */
  readonly fingerprint: string;
  /** The key that signed, `<type> <base64>` (`formatSshPublicKey`): who signed is by it. */
  readonly publicKey: string;
  /** The key's type. */
  readonly keyType: SshKeyType;
  /** The signers file's line that allowed the key. */
  readonly line: number;
}

/** A seal that does not verify, and why. */
export interface SealRefused {
  /** Always `false`. */
  readonly ok: false;
  /** Why, as a code. */
  readonly refusal: SealRefusal;
  /**
   * Why, in words, one line, e.g. `key not listed for ann@example.com`. It may
   * quote the seal's principal and namespace: print it through the sanitising
   * writer.
   */
  readonly reason: string;
}

/** The outcome of {@linkcode verifySeal}. */
export type SealVerdict = SealVerified | SealRefused;

/** What {@linkcode verifySeal} checks. */
export interface VerifySealInput {
  /** The approval's fields; the payload is built from them (an `ApprovalRecord` fits). */
  readonly approval: ApprovalPayloadFields;
  /** The record's seal; absent for an unsigned approval. */
  readonly seal: Seal | undefined | null;
  /** The signers file, parsed. */
  readonly signers: AllowedSigners;
  /** The verifying time, in milliseconds since the epoch. */
  readonly now: number;
  /**
   * The namespace the signature must be made in.
   * @default {"chant-wave"}
   */
  readonly namespace?: string;
}

function refuse(refusal: SealRefusal, reason: string): SealRefused {
  return { ok: false, refusal, reason };
}

/**
 * Verifies a seal. The checks, in order, each with its refusal:
 * - no seal: `not signed`;
 * - a seal, signature or public key that does not parse, or an approval field
 *   with a line break: `the seal is malformed: <detail>`;
 * - the seal's `publicKey` is not the key inside the signature:
 *   `the seal's public key is not the key that signed it`;
 * - the signature's namespace is not `chant-wave`:
 *   `the signature is for namespace "<ns>", not "chant-wave"`;
 * - the signature does not verify over the payload: `signature does not verify`;
 * - no line lists this key for the principal: `key not listed for <principal>`;
 * - every line that lists it refuses it (the first such line is reported):
 *   `key of <principal> is not allowed in namespace "chant-wave" (namespaces="<list>")`,
 *   `key of <principal> is not valid before <ISO time>`,
 *   `key of <principal> expired at <ISO time>`.
 * @param input The approval, its seal, the parsed signers file and the time.
 * @returns The verified principal and key fingerprint, or the refusal.
 * @throws {Error} Only when the runtime's WebCrypto lacks an algorithm (a bug of
 * the build); hostile input is always a refusal.
 * @example
 * ```ts
 * const verdict = await verifySeal({
 *   approval: record, seal: record.seal, signers: parseAllowedSigners(text), now: Date.now(),
 * });
 * if (!verdict.ok) console.error(verdict.reason); // e.g. "key not listed for ann@example.com"
 * ```
 */
export async function verifySeal(input: VerifySealInput): Promise<SealVerdict> {
  const { seal, signers, now } = input;
  const namespace = input.namespace ?? SEAL_NAMESPACE;
  if (seal === undefined || seal === null) {
    return refuse("not-signed", "not signed");
  }
  let parsed;
  try {
    parsed = parseSeal(seal, input.approval);
  } catch (error) {
    if (!(error instanceof SealFormatError)) throw error;
    return refuse("malformed", `the seal is malformed: ${error.message}`);
  }
  const { principal, signature, payload } = parsed;
  if (!sameSshKey(parsed.publicKey, signature.publicKey)) {
    return refuse(
      "key-mismatch",
      "the seal's public key is not the key that signed it",
    );
  }
  if (signature.namespace !== namespace) {
    return refuse(
      "wrong-namespace",
      `the signature is for namespace ${
        quote(signature.namespace)
      }, not "${namespace}"`,
    );
  }
  if (!await signatureVerifies(signature, payload)) {
    return refuse("bad-signature", "signature does not verify");
  }
  const candidates = signers.signers.filter((signer) =>
    sameSshKey(signer.key, signature.publicKey) &&
    matchesPatternList(principal, signer.principals)
  );
  if (candidates.length === 0) {
    return refuse("key-not-listed", `key not listed for ${principal}`);
  }
  const seconds = Math.floor(now / 1000);
  const refusals = candidates.map((signer) =>
    lineRefusal(signer, principal, namespace, seconds)
  );
  const allowing = candidates.find((_, i) => refusals[i] === undefined);
  if (allowing === undefined) return refusals[0]!;
  return {
    ok: true,
    principal,
    fingerprint: await sshKeyFingerprint(signature.publicKey),
    publicKey: formatSshPublicKey(signature.publicKey),
    keyType: signature.publicKey.type,
    line: allowing.line,
  };
}

/** Checks the SSHSIG over the payload; a key WebCrypto refuses does not verify. */
async function signatureVerifies(
  signature: SshSignature,
  payload: string,
): Promise<boolean> {
  const hash = new Uint8Array(
    await globalThis.crypto.subtle.digest(
      signature.hashAlgorithm === "sha512" ? "SHA-512" : "SHA-256",
      new TextEncoder().encode(payload),
    ),
  );
  try {
    return await verifyKeySignature(
      signature.publicKey,
      signature.signatureBytes,
      sshsigSignedData(signature, hash),
    );
  } catch (error) {
    if (!(error instanceof SealFormatError)) throw error;
    return false;
  }
}

/** Parses the seal's parts; throws `SealFormatError` on anything malformed. */
function parseSeal(seal: Seal, approval: ApprovalPayloadFields) {
  const fields = seal as unknown as Record<string, unknown>;
  for (const field of ["principal", "publicKey", "signature"]) {
    if (typeof fields[field] !== "string") {
      throw new SealFormatError(`its "${field}" is not text`);
    }
  }
  const principal = normalisePrincipal(seal.principal);
  if (principal === "") throw new SealFormatError("it names no principal");
  if (principal.length > MAX_PRINCIPAL) {
    throw new SealFormatError(
      `its principal is longer than ${MAX_PRINCIPAL} characters`,
    );
  }
  if (seal.publicKey.length > 16 * 1024) {
    throw new SealFormatError("its public key is longer than 16384 characters");
  }
  return {
    principal,
    publicKey: parseSshPublicKeyLine(seal.publicKey),
    signature: parseSshSignature(seal.signature),
    payload: approvalPayload({
      ...approval,
      ...(seal.ledger === undefined ? {} : { ledger: seal.ledger }),
    }),
  };
}

/** Why one listed line refuses the key now, or `undefined` when it allows it. */
function lineRefusal(
  signer: AllowedSigner,
  principal: string,
  namespace: string,
  seconds: number,
): SealRefused | undefined {
  if (
    signer.namespaces !== undefined &&
    !matchesPatternList(namespace, parsePatternList(signer.namespaces))
  ) {
    return refuse(
      "namespace-not-allowed",
      `key of ${principal} is not allowed in namespace "${namespace}" (namespaces=${
        quote(signer.namespaces)
      })`,
    );
  }
  if (signer.validAfter !== undefined && seconds < signer.validAfter) {
    return refuse(
      "not-yet-valid",
      `key of ${principal} is not valid before ${
        isoSeconds(signer.validAfter)
      }`,
    );
  }
  if (signer.validBefore !== undefined && seconds > signer.validBefore) {
    return refuse(
      "expired",
      `key of ${principal} expired at ${isoSeconds(signer.validBefore)}`,
    );
  }
  return undefined;
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

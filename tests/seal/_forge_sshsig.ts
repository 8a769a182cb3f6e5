/**
 * Builds SSHSIG blobs that `ssh-keygen -Y sign` never makes (RSA with
 * rsa-sha2-256 or the SHA-1 ssh-rsa, short RSA keys, any field changed), signed
 * for real with WebCrypto, to test what the parser refuses. Tests only.
 * @module
 */

import { encodeBase64, sshWire } from "../../src/seal/_ssh_reader.ts";

/** The fields of a forged signature. */
export interface ForgeOptions {
  /** The message signed. */
  message: string;
  /** RSA modulus bits. @default {2048} */
  bits?: number;
  /** The signature algorithm written and the hash used. @default {"rsa-sha2-512"} */
  algorithm?: "rsa-sha2-512" | "rsa-sha2-256" | "ssh-rsa";
  /** The namespace. @default {"chant-wave"} */
  namespace?: string;
}

const HASH = {
  "rsa-sha2-512": "SHA-512",
  "rsa-sha2-256": "SHA-256",
  "ssh-rsa": "SHA-1",
} as const;

function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Encodes a positive big-endian magnitude as an SSH mpint's bytes. */
export function mpint(magnitude: Uint8Array): Uint8Array {
  if (magnitude[0] < 0x80) return magnitude;
  const out = new Uint8Array(magnitude.length + 1);
  out.set(magnitude, 1);
  return out;
}

/** Armors an SSHSIG blob the way ssh-keygen does (70 characters a line). */
export function armor(blob: Uint8Array): string {
  const body = (encodeBase64(blob).match(/.{1,70}/g) ?? []).join("\n");
  return `-----BEGIN SSH SIGNATURE-----\n${body}\n-----END SSH SIGNATURE-----\n`;
}

/**
 * Makes an RSA key with WebCrypto and an SSHSIG of `message` made with it.
 * @returns The armored signature and the key as `ssh-rsa <base64>`.
 */
export async function forgeRsaSignature(
  options: ForgeOptions,
): Promise<{ signature: string; publicKey: string }> {
  const algorithm = options.algorithm ?? "rsa-sha2-512";
  const namespace = options.namespace ?? "chant-wave";
  const subtle = crypto.subtle;
  const pair = await subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: options.bits ?? 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: HASH[algorithm],
    },
    true,
    ["sign", "verify"],
  );
  const jwk = await subtle.exportKey("jwk", pair.publicKey);
  const keyBlob = sshWire([
    { string: "ssh-rsa" },
    { string: mpint(fromBase64Url(jwk.e!)) },
    { string: mpint(fromBase64Url(jwk.n!)) },
  ]);
  const hash = new Uint8Array(
    await subtle.digest("SHA-512", new TextEncoder().encode(options.message)),
  );
  const signed = sshWire([
    new TextEncoder().encode("SSHSIG"),
    { string: namespace },
    { string: "" },
    { string: "sha512" },
    { string: hash },
  ]);
  const raw = new Uint8Array(
    await subtle.sign("RSASSA-PKCS1-v1_5", pair.privateKey, signed),
  );
  const blob = sshWire([
    new TextEncoder().encode("SSHSIG"),
    new Uint8Array([0, 0, 0, 1]),
    { string: keyBlob },
    { string: namespace },
    { string: "" },
    { string: "sha512" },
    { string: sshWire([{ string: algorithm }, { string: raw }]) },
  ]);
  return {
    signature: armor(blob),
    publicKey: `ssh-rsa ${encodeBase64(keyBlob)}`,
  };
}

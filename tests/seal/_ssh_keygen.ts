/**
 * Real `ssh-keygen` for the seal tests: throwaway keys of the three supported
 * types in a temporary directory (removed by `await using`), signing with
 * `-Y sign` and the reference verdict of `-Y verify`. Tests only (uses `Deno.*`).
 * @module
 */

import { join } from "node:path";

/** The key types the tests make, as `ssh-keygen -t` names them. */
export const KEY_KINDS = ["ed25519", "ecdsa", "rsa"] as const;
/** One of {@linkcode KEY_KINDS}. */
export type KeyKind = typeof KEY_KINDS[number];

/** A throwaway key pair. */
export interface TestKey {
  /** The private key file (no passphrase); its public half is `<path>.pub`. */
  readonly path: string;
  /** `<type> <base64>`, no comment. */
  readonly publicKey: string;
}

/** A temporary directory with one key of each kind. */
export interface TestKeys extends AsyncDisposable {
  /** The directory (scratch space for signatures and signers files too). */
  readonly dir: string;
  /** The keys by kind. */
  readonly keys: Readonly<Record<KeyKind, TestKey>>;
}

const decoder = new TextDecoder();

/**
 * Runs ssh-keygen with `args`, `stdin` as its input.
 * @returns Exit code and output.
 */
export async function sshKeygen(
  args: readonly string[],
  stdin = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command("ssh-keygen", {
    args: [...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { LC_ALL: "C" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

async function makeKey(dir: string, kind: KeyKind): Promise<TestKey> {
  const path = join(dir, `id_${kind}`);
  const size = kind === "ecdsa" ? ["-b", "256"] : [];
  const made = await sshKeygen([
    "-q",
    "-t",
    kind,
    ...size,
    "-N",
    "",
    "-C",
    `test-${kind}`,
    "-f",
    path,
  ]);
  if (made.code !== 0) throw new Error(`ssh-keygen -t ${kind}: ${made.stderr}`);
  const line = await Deno.readTextFile(`${path}.pub`);
  return { path, publicKey: line.trim().split(" ").slice(0, 2).join(" ") };
}

/**
 * Makes a temporary directory with an ed25519, an ecdsa-sha2-nistp256 and an
 * RSA (ssh-keygen's default size) key, none with a passphrase.
 * @returns The directory and keys; `await using` removes them.
 */
export async function testKeys(): Promise<TestKeys> {
  const dir = await Deno.makeTempDir({ prefix: "chant-seal-" });
  const made = await Promise.all(KEY_KINDS.map((kind) => makeKey(dir, kind)));
  const keys = Object.fromEntries(
    KEY_KINDS.map((kind, i) => [kind, made[i]]),
  ) as Record<KeyKind, TestKey>;
  return {
    dir,
    keys,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * Signs `message` with `ssh-keygen -Y sign -n <namespace> -f <key>` (on stdin).
 * @param options Extra `-O` options, e.g. `hashalg=sha256`.
 * @returns The armored signature.
 */
export async function sshSign(
  key: TestKey,
  namespace: string,
  message: string,
  options: readonly string[] = [],
): Promise<string> {
  const extra = options.flatMap((option) => ["-O", option]);
  const out = await sshKeygen(
    ["-Y", "sign", "-n", namespace, "-f", key.path, ...extra],
    message,
  );
  if (out.code !== 0) throw new Error(`ssh-keygen -Y sign: ${out.stderr}`);
  return out.stdout;
}

/** What {@linkcode sshVerify} checks. */
export interface SshVerifyCase {
  /** The allowed-signers file's text. */
  signers: string;
  /** The identity (`-I`). */
  principal: string;
  /** The armored signature. */
  signature: string;
  /** The message. */
  message: string;
  /** `-Overify-time=`, e.g. `20300101000000Z`; default now. */
  verifyTime?: string;
}

/**
 * The reference verdict: `ssh-keygen -Y verify -n chant-wave`.
 * @param dir Scratch directory for the signers and signature files.
 * @returns Whether ssh-keygen accepted the signature (exit 0).
 */
export async function sshVerify(
  dir: string,
  c: SshVerifyCase,
): Promise<boolean> {
  const scratch = await Deno.makeTempDir({ dir });
  const signers = join(scratch, "allowed_signers");
  const signature = join(scratch, "sig");
  await Deno.writeTextFile(signers, c.signers);
  await Deno.writeTextFile(signature, c.signature);
  const time = c.verifyTime ? [`-Overify-time=${c.verifyTime}`] : [];
  const out = await sshKeygen([
    "-Y",
    "verify",
    "-n",
    "chant-wave",
    "-f",
    signers,
    "-I",
    c.principal,
    "-s",
    signature,
    ...time,
  ], c.message);
  await Deno.remove(scratch, { recursive: true });
  return out.code === 0;
}

/**
 * `chant-wave approve --sign`: seals an approval with `ssh-keygen -Y sign -n
 * chant-wave` on the approver's machine (SPEC.md §12). An edge: it writes the
 * payload to a private temporary directory, runs ssh-keygen there (never through
 * a shell) and reads the signature back. It records nothing; the approve command
 * stores the seal.
 * Which key it signs with: the given KEY, else git's `user.signingkey` when
 * `gpg.format` is `ssh`, both read as the user's own git reads them (global
 * configuration included: the signing key is the approver's setting, like
 * `user.email`, and decides nothing about what the gate counts).
 * @module
 */

import { type StartedProcess, startProcess } from "../proc/start_process.ts";
import { mkdtemp, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
// @ts-types="../../types/std/path.d.ts"
import { join, resolve } from "@std/path";
import { InputError } from "../errors.ts";
import type { Env } from "../git/git_env.ts";
import {
  approvalPayload,
  type ApprovalPayloadFields,
} from "./approval_payload.ts";
import { type Seal, SEAL_NAMESPACE, SealFormatError } from "./seal.ts";
import {
  formatSshPublicKey,
  isKeyTypeName,
  parseSshPublicKeyLine,
  sshKeyFingerprint,
  type SshPublicKey,
} from "./ssh_public_key.ts";
import { parseSshSignature } from "./sshsig.ts";
import type { Git } from "../git/git.ts";

/** What {@linkcode signApproval} signs, and how. */
export interface SignApprovalOptions {
  /** The approval's fields; the payload is built from them. */
  readonly approval: ApprovalPayloadFields;
  /** Who signs, stored as the seal's principal (the gate checks it against the signers file). */
  readonly principal: string;
  /** The key, from `resolveSigningKey`. */
  readonly key: SigningKey;
  /** The environment ssh-keygen runs in (`PATH`, `HOME`, `SSH_AUTH_SOCK` …). */
  readonly env: Env;
  /**
   * The ssh-keygen executable.
   * @default {"ssh-keygen"}
   */
  readonly sshKeygen?: string;
}

/**
 * Signs an approval. Runs `ssh-keygen -Y sign -n chant-wave -f KEY payload`
 * (with `-U` for a literal key, whose private half the ssh-agent holds) with
 * stdin inherited, so a passphrase prompt reaches the approver's terminal. The
 * seal's `publicKey` is the key inside the signature, as `<type> <base64>`.
 * @param options The approval, the principal, the key and the environment.
 * @returns The seal to store in the approval record.
 * @throws {InputError} When a literal key is not a supported public key,
 * ssh-keygen is missing or fails (its last line of stderr is kept), or it writes
 * a signature chant-wave cannot read.
 */
export async function signApproval(
  options: SignApprovalOptions,
): Promise<Seal> {
  const payload = approvalPayload(options.approval);
  const dir = await mkdtemp(join(tmpdir(), "chant-wave-sign-"));
  try {
    const message = join(dir, "approval");
    await writeFile(message, payload, { mode: 0o600 });
    let keyArgs: string[];
    let keyName: string;
    if (options.key.kind === "file") {
      keyArgs = ["-f", options.key.path];
      keyName = options.key.path;
    } else {
      const key = literalKey(options.key.publicKey);
      const pub = join(dir, "key.pub");
      await writeFile(pub, `${formatSshPublicKey(key)}\n`, { mode: 0o600 });
      keyArgs = ["-f", pub, "-U"];
      keyName = `${key.type} ${await sshKeyFingerprint(key)}`;
    }
    const command = options.sshKeygen ?? "ssh-keygen";
    const args = ["-Y", "sign", "-n", SEAL_NAMESPACE, ...keyArgs, message];
    await runSshKeygen(command, args, options.env, keyName);
    const armored = (await readFile(`${message}.sig`, "utf8")).trim();
    try {
      const signature = parseSshSignature(armored);
      const { ledger } = options.approval;
      return {
        principal: options.principal,
        publicKey: formatSshPublicKey(signature.publicKey),
        signature: armored,
        ...(ledger === undefined ? {} : { ledger }),
      };
    } catch (error) {
      if (!(error instanceof SealFormatError)) throw error;
      throw new InputError(
        `cannot sign with "${keyName}": ${error.message}`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Parses a literal signing key; fails with a one-line input error. */
function literalKey(line: string): SshPublicKey {
  try {
    return parseSshPublicKeyLine(line);
  } catch (error) {
    if (!(error instanceof SealFormatError)) throw error;
    throw new InputError(`cannot sign with the given key: ${error.message}`);
  }
}

/** Runs ssh-keygen; fails with a one-line input error unless it exits 0. */
async function runSshKeygen(
  command: string,
  args: readonly string[],
  env: Env,
  keyName: string,
): Promise<void> {
  let child: StartedProcess;
  try {
    child = await startProcess({
      command,
      args,
      env: definedOnly(env),
      stdin: "inherit",
      detached: false,
    });
  } catch (error) {
    const { code, message } = error as Error & { code?: string };
    throw new InputError(
      code === "ENOENT"
        ? `cannot sign: "${command}" was not found (install OpenSSH's ssh-keygen, or check PATH)`
        : `cannot sign: could not start "${command}": ${message}`,
    );
  }
  const decoder = new TextDecoder();
  let stderr = "";
  const complaints = async () => {
    for await (const chunk of child.stderr) {
      if (stderr.length < 64 * 1024) {
        stderr += decoder.decode(chunk, { stream: true });
      }
    }
  };
  const ignored = async () => {
    for await (const _ of child.stdout) continue;
  };
  const [exit] = await Promise.all([child.exited, complaints(), ignored()]);
  if (exit.code === 0) return;
  const last = stderr.trim().split("\n").filter((line) =>
    line.trim() !== "" && !/^Signing (file|data)/.test(line)
  ).pop();
  const status = exit.code === undefined
    ? `signal ${exit.signal}`
    : `exit code ${exit.code}`;
  throw new InputError(
    `ssh-keygen could not sign with "${keyName}": ${last?.trim() ?? status}`,
  );
}

function definedOnly(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A key to sign with. */
export type SigningKey =
  /** A key file (private, or a `.pub` whose private half is in ssh-agent). */
  | { readonly kind: "file"; readonly path: string }
  /** A public key given literally (`key::ssh-ed25519 AAAA…`); the agent signs. */
  | { readonly kind: "literal"; readonly publicKey: string };

const NO_KEY_HINT =
  "pass --sign KEY, or set git config gpg.format ssh and user.signingkey";

/**
 * Resolves the key to sign with, as git does for `user.signingkey`: a value
 * starting with `key::` or with a key type (`ssh-ed25519 AAAA…`) is a literal
 * public key; anything else is a path, `~/` expanded with `HOME`, relative paths
 * taken from `cwd`.
 * @param given The KEY of `--sign KEY`, or `undefined` for git's default.
 * @param io Git (for `configGet`), the working directory and the environment.
 * @returns The key.
 * @throws {InputError} When no key is given and git names none (or `gpg.format`
 * is not `ssh`), or the key file is missing or unreadable.
 */
export async function resolveSigningKey(
  given: string | undefined,
  io: { git: Pick<Git, "configGet">; cwd: string; env: Env },
): Promise<SigningKey> {
  const value = given ?? await signingKeyFromGit(io.git, io.cwd);
  const literal = value.startsWith("key::") ? value.slice(5) : value;
  if (isKeyTypeName(literal.trim().split(/[ \t]+/)[0])) {
    return { kind: "literal", publicKey: literal.trim() };
  }
  const home = io.env.HOME;
  const expanded = value.startsWith("~/") && home
    ? `${home}${value.slice(1)}`
    : value;
  const path = resolve(io.cwd, expanded);
  await checkReadable(path);
  return { kind: "file", path };
}

async function signingKeyFromGit(
  git: Pick<Git, "configGet">,
  cwd: string,
): Promise<string> {
  const read = (key: string) => git.configGet(key, cwd).catch(() => undefined);
  const format = await read("gpg.format");
  const key = await read("user.signingkey");
  if (format !== "ssh") {
    const shown = format === undefined ? "is not set" : `is "${format}"`;
    throw new InputError(
      `cannot tell which key signs: git's gpg.format ${shown}, not "ssh"`,
      [NO_KEY_HINT],
    );
  }
  if (!key) {
    throw new InputError(
      "cannot tell which key signs: git's user.signingkey is not set",
      [NO_KEY_HINT],
    );
  }
  return key;
}

/**
 * Fails with a one-line input error unless `path` is a readable regular file
 * (checked before opening, so a FIFO never blocks).
 */
async function checkReadable(path: string): Promise<void> {
  let handle;
  try {
    if (!(await stat(path)).isFile()) {
      throw new InputError(`cannot sign: key file "${path}" is not a file`);
    }
    handle = await open(path, "r");
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as { code?: string }).code;
    const why = code === "ENOENT"
      ? "does not exist"
      : code === "EACCES"
      ? "is not readable: permission denied"
      : code === "EISDIR"
      ? "is not a file"
      : `cannot be read: ${(error as Error).message}`;
    throw new InputError(`cannot sign: key file "${path}" ${why}`);
  } finally {
    await handle?.close();
  }
}

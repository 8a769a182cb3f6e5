/**
 * `chant-wave approve --sign`: seals an approval with `ssh-keygen -Y sign -n
 * chant-wave` on the approver's machine (SPEC.md §12). An edge: it writes the
 * payload to a private temporary directory, runs ssh-keygen there (never through
 * a shell) and reads the signature back. It records nothing; the approve command
 * stores the seal.
 * @module
 */

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
// @ts-types="../../types/std/path.d.ts"
import { join } from "@std/path";
import { InputError } from "../errors.ts";
import type { Env } from "../git/git_env.ts";
import {
  approvalPayload,
  type ApprovalPayloadFields,
} from "./approval_payload.ts";
import { type Seal, SEAL_NAMESPACE } from "./seal.ts";
import { SealFormatError } from "./seal_format_error.ts";
import type { SigningKey } from "./signing_key.ts";
import {
  formatSshPublicKey,
  parseSshPublicKeyLine,
  sshKeyFingerprint,
  type SshPublicKey,
} from "./ssh_public_key.ts";
import { parseSshSignature } from "./sshsig.ts";

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
function runSshKeygen(
  command: string,
  args: readonly string[],
  env: Env,
  keyName: string,
): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      env: definedOnly(env),
      shell: false,
      stdio: ["inherit", "ignore", "pipe"],
      windowsHide: true,
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.once("error", (error: Error & { code?: string }) => {
      fail(
        new InputError(
          error.code === "ENOENT"
            ? `cannot sign: "${command}" was not found (install OpenSSH's ssh-keygen, or check PATH)`
            : `cannot sign: could not start "${command}": ${error.message}`,
        ),
      );
    });
    child.once("close", (code, signal) => {
      if (code === 0) return done();
      const last = stderr.trim().split("\n").filter((line) =>
        line.trim() !== "" && !/^Signing (file|data)/.test(line)
      ).pop();
      const status = code === null ? `signal ${signal}` : `exit code ${code}`;
      fail(
        new InputError(
          `ssh-keygen could not sign with "${keyName}": ${
            last?.trim() ?? status
          }`,
        ),
      );
    });
  });
}

function definedOnly(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) out[name] = value;
  }
  return out;
}

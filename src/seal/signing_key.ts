/**
 * Which key `chant-wave approve --sign [KEY]` signs with (SPEC.md §12): the given
 * KEY, else git's `user.signingkey` when `gpg.format` is `ssh`, both read as the
 * user's own git reads them (global configuration included, through
 * `Git.configGet`: the signing key is the approver's setting, like `user.email`,
 * and decides nothing about what the gate counts). An edge: it reads git
 * configuration and checks the key file; it does not sign.
 * @module
 */

import { open, stat } from "node:fs/promises";
// @ts-types="../../types/std/path.d.ts"
import { resolve } from "@std/path";
import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import type { Env } from "../git/git_env.ts";
import { isKeyTypeName } from "./ssh_public_key.ts";

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

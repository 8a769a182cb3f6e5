/**
 * Throwaway SSH keys for end-to-end tests of sealed approvals: an ed25519 key
 * made by the real `ssh-keygen` in a directory the test owns, and the line an
 * allowed-signers file lists it with. Tests only (uses `Deno.*`).
 * @module
 */

/** A key pair on disk. */
export interface SshKey {
  /** The private key file (no passphrase); its public half is `<path>.pub`. */
  path: string;
  /** `ssh-ed25519 <base64>`, no comment. */
  publicKey: string;
}

/**
 * Makes an ed25519 key `<dir>/<name>` with ssh-keygen.
 * @param dir An existing directory.
 * @param name The key file's name.
 * @returns The key.
 */
export async function makeKey(dir: string, name: string): Promise<SshKey> {
  const path = `${dir}/${name}`;
  const out = await new Deno.Command("ssh-keygen", {
    args: ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`ssh-keygen: ${new TextDecoder().decode(out.stderr)}`);
  }
  const line = await Deno.readTextFile(`${path}.pub`);
  return { path, publicKey: line.trim().split(" ").slice(0, 2).join(" ") };
}

/**
 * An allowed-signers file listing each principal with its key.
 * @param entries Principal → key.
 * @returns The file's text.
 */
export function signersFile(entries: Record<string, SshKey>): string {
  return Object.entries(entries)
    .map(([principal, key]) => `${principal} ${key.publicKey}\n`).join("");
}

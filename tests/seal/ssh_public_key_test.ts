// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { SealFormatError } from "../../src/seal/seal.ts";
import {
  formatSshPublicKey,
  isKeyTypeName,
  parseSshPublicKeyLine,
  sameSshKey,
  sshKeyFingerprint,
} from "../../src/seal/ssh_public_key.ts";
import { KEY_KINDS, sshKeygen, testKeys } from "./_ssh_keygen.ts";

Deno.test("parseSshPublicKeyLine() reads ssh-keygen's .pub files and the fingerprint matches ssh-keygen -l", async (t) => {
  await using k = await testKeys();
  for (const kind of KEY_KINDS) {
    await t.step(kind, async () => {
      const path = `${k.keys[kind].path}.pub`;
      const line = await Deno.readTextFile(path);
      const key = parseSshPublicKeyLine(line);
      expect(formatSshPublicKey(key)).toBe(k.keys[kind].publicKey);
      const listed = await sshKeygen(["-l", "-E", "sha256", "-f", path]);
      expect(await sshKeyFingerprint(key)).toBe(listed.stdout.split(" ")[1]);
      expect(sameSshKey(key, parseSshPublicKeyLine(k.keys[kind].publicKey)))
        .toBe(true);
    });
  }
  await t.step("different keys differ", () => {
    const a = parseSshPublicKeyLine(k.keys.ed25519.publicKey);
    const b = parseSshPublicKeyLine(k.keys.ecdsa.publicKey);
    expect(sameSshKey(a, b)).toBe(false);
  });
});

Deno.test("parseSshPublicKeyLine() refuses lines that are not supported keys", async (t) => {
  const ed =
    "AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9";
  const cases = [
    {
      name: "one word",
      line: "ssh-ed25519",
      want:
        "the public key is not a line of the form '<key type> <base64 key>'",
    },
    {
      name: "an unknown type",
      line: `ssh-foo ${ed}`,
      want:
        'the key type "ssh-foo" is not supported (only ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa)',
    },
    {
      name: "a mismatched type",
      line: `ecdsa-sha2-nistp256 ${ed}`,
      want:
        'the public key is named "ecdsa-sha2-nistp256" but its data is "ssh-ed25519"',
    },
    {
      name: "trailing data in the blob",
      line: `ssh-ed25519 ${btoa(atob(ed) + "\0")}`,
      want: "the public key has 1 bytes of trailing data",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(() => parseSshPublicKeyLine(c.line)).toThrow(SealFormatError);
      expect(() => parseSshPublicKeyLine(c.line)).toThrow(c.want);
    });
  }
});

Deno.test("isKeyTypeName() knows OpenSSH's key types, supported or not", () => {
  expect(
    [
      "ssh-ed25519",
      "ssh-dss",
      "sk-ssh-ed25519@openssh.com",
      "ecdsa-sha2-nistp256-cert-v01@openssh.com",
      "cert-authority",
      'namespaces="git"',
    ].map(isKeyTypeName),
  ).toEqual([true, true, true, true, false, false]);
});

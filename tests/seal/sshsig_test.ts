// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  decodeBase64,
  encodeBase64,
  sshWire,
} from "../../src/seal/_ssh_reader.ts";
import { SealFormatError } from "../../src/seal/seal.ts";
import { parseSshPublicKeyLine } from "../../src/seal/ssh_public_key.ts";
import {
  MAX_ARMORED_SIGNATURE,
  parseSshSignature,
  sshsigSignedData,
} from "../../src/seal/sshsig.ts";
import { armor, forgeRsaSignature } from "./_forge_sshsig.ts";
import { KEY_KINDS, sshSign, sshVerify, testKeys } from "./_ssh_keygen.ts";
import { runFuzz } from "./_fuzz.ts";

const ED25519 =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9";
const ED_BLOB = parseSshPublicKeyLine(ED25519).blob;
const MAGIC = new TextEncoder().encode("SSHSIG");
const VERSION_1 = new Uint8Array([0, 0, 0, 1]);

/** An SSHSIG blob with `fields` replacing the defaults (an Ed25519 signature). */
function blob(fields: {
  magic?: Uint8Array;
  version?: Uint8Array;
  key?: Uint8Array;
  namespace?: string;
  hash?: string;
  inner?: Uint8Array;
  trailing?: Uint8Array;
} = {}): Uint8Array {
  return sshWire([
    fields.magic ?? MAGIC,
    fields.version ?? VERSION_1,
    { string: fields.key ?? ED_BLOB },
    { string: fields.namespace ?? "chant-wave" },
    { string: "" },
    { string: fields.hash ?? "sha512" },
    {
      string: fields.inner ??
        sshWire([{ string: "ssh-ed25519" }, { string: new Uint8Array(64) }]),
    },
    fields.trailing ?? new Uint8Array(0),
  ]);
}

Deno.test("parseSshSignature() reads what ssh-keygen -Y sign writes", async (t) => {
  await using k = await testKeys();
  for (const kind of KEY_KINDS) {
    await t.step(kind, async () => {
      const key = k.keys[kind];
      const armored = await sshSign(key, "chant-wave", "hello", [
        "hashalg=sha256",
      ]);
      const sig = parseSshSignature(armored);
      expect(encodeBase64(sig.publicKey.blob)).toBe(
        key.publicKey.split(" ")[1],
      );
      expect(sig.namespace).toBe("chant-wave");
      expect(sig.hashAlgorithm).toBe("sha256");
      expect(sig.reserved.length).toBe(0);
      expect(sig.signatureAlgorithm).toBe(
        kind === "rsa" ? "rsa-sha2-512" : key.publicKey.split(" ")[0],
      );
    });
  }
  await t.step("with CRLF line ends and surrounding white space", async () => {
    const armored = await sshSign(k.keys.ed25519, "chant-wave", "hello");
    const crlf = `\n  ${armored.replaceAll("\n", "\r\n")}  \n`;
    expect(parseSshSignature(crlf).namespace).toBe("chant-wave");
  });
});

Deno.test("parseSshSignature() refuses malformed signatures with one line", async (t) => {
  const ok = blob();
  const cases: { name: string; text: string; want: string }[] = [
    {
      name: "too long",
      text: "x".repeat(MAX_ARMORED_SIGNATURE + 1),
      want: "the SSH signature is longer than 16384 characters",
    },
    {
      name: "no header",
      text: "U1NIU0lH\n-----END SSH SIGNATURE-----",
      want:
        'the SSH signature does not start with "-----BEGIN SSH SIGNATURE-----"',
    },
    {
      name: "no footer",
      text: "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n",
      want: 'the SSH signature does not end with "-----END SSH SIGNATURE-----"',
    },
    {
      name: "a bad base64 body",
      text: armor(ok).replace("U1NI", "U1N!"),
      want: "the SSH signature is not valid base64",
    },
    {
      name: "a body without padding",
      text:
        "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHA\n-----END SSH SIGNATURE-----",
      want: "the SSH signature is not valid base64",
    },
    {
      name: "another magic",
      text: armor(blob({ magic: new TextEncoder().encode("SSHSIX") })),
      want: 'the SSH signature does not start with "SSHSIG"',
    },
    {
      name: "version 2",
      text: armor(blob({ version: new Uint8Array([0, 0, 0, 2]) })),
      want: "the SSH signature has version 2, not 1",
    },
    {
      name: "an empty namespace",
      text: armor(blob({ namespace: "" })),
      want: "the SSH signature has an empty namespace",
    },
    {
      name: "an unknown hash",
      text: armor(blob({ hash: "md5" })),
      want: 'the SSH signature names the hash "md5", not sha256 or sha512',
    },
    {
      name: "trailing data",
      text: armor(blob({ trailing: new Uint8Array([0]) })),
      want: "the SSH signature has 1 bytes of trailing data",
    },
    {
      name: "cut short",
      text: armor(ok.subarray(0, 40)),
      want: 'the SSH signature is cut short in "publickey"',
    },
    {
      name: "a huge length field",
      text: armor(
        sshWire([MAGIC, VERSION_1, new Uint8Array([0xff, 0xff, 0xff, 0xff])]),
      ),
      want:
        'the SSH signature has a "publickey" of 4294967295 bytes (at most 4096)',
    },
    {
      name: "a DSA key",
      text: armor(
        blob({ key: sshWire([{ string: "ssh-dss" }, { string: "x" }]) }),
      ),
      want:
        'the key type "ssh-dss" is not supported (only ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa)',
    },
    {
      name: "a short Ed25519 key",
      text: armor(
        blob({
          key: sshWire([{ string: "ssh-ed25519" }, { string: "short" }]),
        }),
      ),
      want: "the public key has an Ed25519 key of 5 bytes",
    },
    {
      name: "an algorithm that is not the key's",
      text: armor(
        blob({
          inner: sshWire([{ string: "ssh-rsa" }, {
            string: new Uint8Array(64),
          }]),
        }),
      ),
      want:
        'the SSH signature\'s signature is made with "ssh-rsa"; a ssh-ed25519 key must sign with "ssh-ed25519"',
    },
    {
      name: "trailing data in the signature blob",
      text: armor(
        blob({
          inner: sshWire([
            { string: "ssh-ed25519" },
            { string: new Uint8Array(64) },
            new Uint8Array([1]),
          ]),
        }),
      ),
      want: "the SSH signature's signature has 1 bytes of trailing data",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(() => parseSshSignature(c.text)).toThrow(SealFormatError);
      expect(() => parseSshSignature(c.text)).toThrow(c.want);
    });
  }
});

Deno.test("parseSshSignature() takes RSA only as rsa-sha2-512 of at least 2048 bits", async (t) => {
  await using k = await testKeys();
  const cases = [
    {
      name: "rsa-sha2-512 (what ssh-keygen makes)",
      forge: { algorithm: "rsa-sha2-512" as const },
      sshKeygen: true,
      want: undefined,
    },
    {
      name: "rsa-sha2-256, which ssh-keygen accepts but SPEC §12 does not list",
      forge: { algorithm: "rsa-sha2-256" as const },
      sshKeygen: true,
      want:
        'the SSH signature\'s signature is made with "rsa-sha2-256"; a ssh-rsa key must sign with "rsa-sha2-512"',
    },
    {
      name: "the SHA-1 ssh-rsa, which ssh-keygen refuses too",
      forge: { algorithm: "ssh-rsa" as const },
      sshKeygen: false,
      want:
        'the SSH signature\'s signature is made with "ssh-rsa"; a ssh-rsa key must sign with "rsa-sha2-512"',
    },
    {
      name: "a 1024-bit key, which ssh-keygen accepts",
      forge: { algorithm: "rsa-sha2-512" as const, bits: 1024 },
      sshKeygen: true,
      want: "the public key is an RSA key of 1024 bits (at least 2048)",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const forged = await forgeRsaSignature({ message: "hi", ...c.forge });
      const reference = await sshVerify(k.dir, {
        signers: `ann@example.com ${forged.publicKey}\n`,
        principal: "ann@example.com",
        signature: forged.signature,
        message: "hi",
      });
      expect(reference).toBe(c.sshKeygen);
      if (c.want === undefined) {
        expect(parseSshSignature(forged.signature).signatureAlgorithm).toBe(
          "rsa-sha2-512",
        );
      } else {
        expect(() => parseSshSignature(forged.signature)).toThrow(c.want);
      }
    });
  }
});

Deno.test("sshsigSignedData() lays out PROTOCOL.sshsig's signed data", () => {
  const sig = parseSshSignature(armor(blob({ hash: "sha256" })));
  const data = sshsigSignedData(sig, new Uint8Array([9, 9]));
  expect(Array.from(data)).toEqual([
    ...MAGIC,
    ...[0, 0, 0, 10],
    ...new TextEncoder().encode("chant-wave"),
    ...[0, 0, 0, 0],
    ...[0, 0, 0, 6],
    ...new TextEncoder().encode("sha256"),
    ...[0, 0, 0, 2, 9, 9],
  ]);
});

Deno.test("parseSshSignature() throws only SealFormatError on mutated signatures", async () => {
  await using k = await testKeys();
  const samples = await Promise.all(
    KEY_KINDS.map((kind) => sshSign(k.keys[kind], "chant-wave", "hello")),
  );
  const bodies = samples.map((text) =>
    encodeBase64(decodeBase64(text.split("\n").slice(1, -2).join(""), "x"))
  );
  const failures = await runFuzz({
    target: "sshsig",
    seed: 13,
    samples: bodies,
  });
  expect(failures).toEqual([]);
});

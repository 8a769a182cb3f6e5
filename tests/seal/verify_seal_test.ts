// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseAllowedSigners } from "../../src/seal/allowed_signers.ts";
import { approvalPayload } from "../../src/seal/approval_payload.ts";
import { type SealRefusal, verifySeal } from "../../src/seal/verify_seal.ts";
import {
  KEY_KINDS,
  sshKeygen,
  sshSign,
  sshVerify,
  type TestKey,
  testKeys,
} from "./_ssh_keygen.ts";
import { runFuzz } from "./_fuzz.ts";
import { bunOfCompileScript } from "../_helpers/bun.ts";
import { join } from "node:path";

const APPROVAL = {
  name: "demo",
  gate: "demo-wave-2",
  planDigest: `sha256:${"1f".repeat(32)}`,
  by: "ann@example.com",
  timestamp: "2026-11-30T09:15:02.123Z",
};
const PAYLOAD = approvalPayload(APPROVAL);

/** One cross-check: a signers file, a signature and what both verifiers say. */
interface CrossCase {
  name: string;
  /** The signers file, given the signing key and a key of another kind. */
  signers: (key: TestKey, other: TestKey) => string;
  /** The namespace signed in. @default {"chant-wave"} */
  namespace?: string;
  /** `-O` options of the signing. */
  signOptions?: string[];
  /** Verify an approval other than the one signed. */
  tampered?: boolean;
  /** The seal's principal. @default {"ann@example.com"} */
  principal?: string;
  /** The verifying time, `YYYYMMDDHHMMSSZ`; default now. */
  at?: string;
  /** The refusal, or `ok` when both accept. */
  want: SealRefusal | "ok";
}

const CASES: CrossCase[] = [
  {
    name: "a listed key",
    signers: (k) => `ann@example.com ${k.publicKey}\n`,
    want: "ok",
  },
  {
    name: "a sha256 message hash",
    signers: (k) => `ann@example.com ${k.publicKey}\n`,
    signOptions: ["hashalg=sha256"],
    want: "ok",
  },
  {
    name: "a tampered payload",
    signers: (k) => `ann@example.com ${k.publicKey}\n`,
    tampered: true,
    want: "bad-signature",
  },
  {
    name: "another namespace",
    signers: (k) => `ann@example.com ${k.publicKey}\n`,
    namespace: "git",
    want: "wrong-namespace",
  },
  {
    name: "a principal the file does not list",
    signers: (k) => `bob@example.com ${k.publicKey}\n`,
    want: "key-not-listed",
  },
  {
    name: "the principal listed with another key",
    signers: (_, other) => `ann@example.com ${other.publicKey}\n`,
    want: "key-not-listed",
  },
  {
    name: "an expired valid-before",
    signers: (k) => `ann@example.com valid-before="20200101Z" ${k.publicKey}\n`,
    want: "expired",
  },
  {
    name: "a valid-after still to come",
    signers: (k) => `ann@example.com valid-after="20990101Z" ${k.publicKey}\n`,
    want: "not-yet-valid",
  },
  {
    name: "namespaces that exclude chant-wave",
    signers: (k) => `ann@example.com namespaces="git,file" ${k.publicKey}\n`,
    want: "namespace-not-allowed",
  },
  {
    name: "namespaces that match chant-wave by a pattern",
    signers: (k) =>
      `ann@example.com namespaces="file,chant-*" ${k.publicKey}\n`,
    want: "ok",
  },
  {
    name: "a wildcard principal",
    signers: (k) => `*@example.com ${k.publicKey}\n`,
    want: "ok",
  },
  {
    name: "a negated principal",
    signers: (k) => `*@example.com,!ann@example.com ${k.publicKey}\n`,
    want: "key-not-listed",
  },
  {
    name: "a quoted principal and capitalised option keywords",
    signers: (k) =>
      `"ann@example.com" NAMESPACES="chant-wave",Valid-Before="29990101Z" ${k.publicKey} a comment\n`,
    want: "ok",
  },
  {
    name: "a cert-authority line (no certificates)",
    signers: (k) => `ann@example.com cert-authority ${k.publicKey}\n`,
    want: "key-not-listed",
  },
  {
    name: "a second line that allows what the first refuses",
    signers: (k) =>
      `ann@example.com valid-before="20200101Z" ${k.publicKey}\n# comment\n\nann@example.com ${k.publicKey}\n`,
    want: "ok",
  },
  {
    name: "a line with an unknown option",
    signers: (k) => `ann@example.com verify-required ${k.publicKey}\n`,
    want: "key-not-listed",
  },
  {
    name: "a line with an unquoted option value",
    signers: (k) => `ann@example.com valid-before=29990101 ${k.publicKey}\n`,
    want: "key-not-listed",
  },
  {
    name: "valid-before exactly at the verifying time",
    signers: (k) =>
      `ann@example.com valid-before="20300101000000Z" ${k.publicKey}\n`,
    at: "20300101000000Z",
    want: "ok",
  },
  {
    name: "valid-before one second before the verifying time",
    signers: (k) =>
      `ann@example.com valid-before="20300101000000Z" ${k.publicKey}\n`,
    at: "20300101000001Z",
    want: "expired",
  },
  {
    name: "valid-after exactly at the verifying time",
    signers: (k) =>
      `ann@example.com valid-after="203001011200Z" ${k.publicKey}\n`,
    at: "20300101120000Z",
    want: "ok",
  },
  {
    name: "valid-after one second after the verifying time",
    signers: (k) =>
      `ann@example.com valid-after="203001011200Z" ${k.publicKey}\n`,
    at: "20300101115959Z",
    want: "not-yet-valid",
  },
];

function epochMs(at: string): number {
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((i, n) =>
    Number(at.slice(i, n === 0 ? 4 : i + 2))
  );
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

Deno.test("verifySeal() agrees with ssh-keygen -Y verify for every key type", async (t) => {
  await using k = await testKeys();
  for (const kind of KEY_KINDS) {
    const key = k.keys[kind];
    const other = k.keys[KEY_KINDS[(KEY_KINDS.indexOf(kind) + 1) % 3]];
    for (const c of CASES) {
      await t.step(`${kind}: ${c.name}`, async () => {
        const signature = await sshSign(
          key,
          c.namespace ?? "chant-wave",
          PAYLOAD,
          c.signOptions,
        );
        const approval = c.tampered
          ? { ...APPROVAL, planDigest: `sha256:${"2e".repeat(32)}` }
          : APPROVAL;
        const principal = c.principal ?? "ann@example.com";
        const signers = c.signers(key, other);
        const reference = await sshVerify(k.dir, {
          signers,
          principal,
          signature,
          message: approvalPayload(approval),
          verifyTime: c.at,
        });
        const verdict = await verifySeal({
          approval,
          seal: { principal, publicKey: key.publicKey, signature },
          signers: parseAllowedSigners(signers),
          now: c.at ? epochMs(c.at) : Date.now(),
        });
        expect({ sshKeygen: reference, chantWave: verdict.ok }).toEqual({
          sshKeygen: c.want === "ok",
          chantWave: c.want === "ok",
        });
        expect(verdict.ok ? "ok" : verdict.refusal).toBe(c.want);
      });
    }
  }
});

Deno.test("verifySeal() returns the normalised principal and ssh-keygen's fingerprint", async (t) => {
  await using k = await testKeys();
  for (const kind of KEY_KINDS) {
    await t.step(kind, async () => {
      const key = k.keys[kind];
      const listed = await sshKeygen([
        "-l",
        "-E",
        "sha256",
        "-f",
        `${key.path}.pub`,
      ]);
      const fingerprint = listed.stdout.split(" ")[1];
      const verdict = await verifySeal({
        approval: APPROVAL,
        seal: {
          principal: " Ａnn@Example.COM ",
          publicKey: `${key.publicKey} a comment`,
          signature: await sshSign(key, "chant-wave", PAYLOAD),
        },
        signers: parseAllowedSigners(
          `# team\nbob@example.com ${key.publicKey}\nANN@example.com ${key.publicKey}\n`,
        ),
        now: Date.now(),
      });
      expect(verdict).toEqual({
        ok: true,
        principal: "ann@example.com",
        fingerprint,
        publicKey: key.publicKey,
        keyType: key.publicKey.split(" ")[0],
        line: 3,
      });
    });
  }
});

Deno.test("verifySeal() says why it refuses", async (t) => {
  await using k = await testKeys();
  const key = k.keys.ed25519;
  const signature = await sshSign(key, "chant-wave", PAYLOAD);
  const seal = {
    principal: "ann@example.com",
    publicKey: key.publicKey,
    signature,
  };
  const listed = parseAllowedSigners(`ann@example.com ${key.publicKey}\n`);
  const now = Date.UTC(2030, 0, 1);
  const cases: {
    name: string;
    seal?: typeof seal | null;
    approval?: typeof APPROVAL;
    signers?: string;
    want: string;
  }[] = [
    { name: "no seal", seal: undefined, want: "not signed" },
    { name: "a null seal", seal: null, want: "not signed" },
    {
      name: "a signature that is not armored",
      seal: { ...seal, signature: "hello" },
      want:
        'the seal is malformed: the SSH signature does not start with "-----BEGIN SSH SIGNATURE-----"',
    },
    {
      name: "an empty principal",
      seal: { ...seal, principal: "  " },
      want: "the seal is malformed: it names no principal",
    },
    {
      name: "a principal that is not text",
      seal: { ...seal, principal: 42 as unknown as string },
      want: 'the seal is malformed: its "principal" is not text',
    },
    {
      name: "a public key line that is not a key",
      seal: { ...seal, publicKey: "ssh-ed25519" },
      want:
        "the seal is malformed: the public key is not a line of the form '<key type> <base64 key>'",
    },
    {
      name: "a public key other than the signing one",
      seal: { ...seal, publicKey: k.keys.ecdsa.publicKey },
      want: "the seal's public key is not the key that signed it",
    },
    {
      name: "an approval field with a line break",
      approval: { ...APPROVAL, by: "ann@example.com\nsha256:x" },
      want: 'the seal is malformed: the approval\'s "by" contains a line break',
    },
    {
      name: "a tampered payload",
      approval: { ...APPROVAL, by: "eve@example.com" },
      want: "signature does not verify",
    },
    {
      name: "an approval signed without --during-freeze, marked so afterwards",
      approval: { ...APPROVAL, duringFreeze: true } as typeof APPROVAL,
      want: "signature does not verify",
    },
    {
      name: "an unlisted principal",
      seal: { ...seal, principal: "Eve@Example.com" },
      want: "key not listed for eve@example.com",
    },
    {
      name: "an empty signers file",
      signers: "",
      want: "key not listed for ann@example.com",
    },
    {
      name: "namespaces that exclude chant-wave",
      signers: `ann@example.com namespaces="git" ${key.publicKey}`,
      want:
        'key of ann@example.com is not allowed in namespace "chant-wave" (namespaces="git")',
    },
    {
      name: "a valid-after still to come",
      signers: `ann@example.com valid-after="20300102Z" ${key.publicKey}`,
      want: "key of ann@example.com is not valid before 2030-01-02T00:00:00Z",
    },
    {
      name: "an expired valid-before",
      signers: `ann@example.com valid-before="202912311200Z" ${key.publicKey}`,
      want: "key of ann@example.com expired at 2029-12-31T12:00:00Z",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const verdict = await verifySeal({
        approval: c.approval ?? APPROVAL,
        seal: "seal" in c ? c.seal : seal,
        signers: c.signers === undefined
          ? listed
          : parseAllowedSigners(c.signers),
        now,
      });
      expect(verdict.ok ? "ok" : verdict.reason).toBe(c.want);
    });
  }
  await t.step("a signature in another namespace", async () => {
    const verdict = await verifySeal({
      approval: APPROVAL,
      seal: { ...seal, signature: await sshSign(key, "git", PAYLOAD) },
      signers: listed,
      now,
    });
    expect(verdict.ok ? "ok" : verdict.reason).toBe(
      'the signature is for namespace "git", not "chant-wave"',
    );
  });
});

Deno.test("verifySeal() verifies against a given namespace", async () => {
  await using k = await testKeys();
  const key: TestKey = k.keys.ed25519;
  const verdict = await verifySeal({
    approval: APPROVAL,
    seal: {
      principal: "ann@example.com",
      publicKey: key.publicKey,
      signature: await sshSign(key, "file", PAYLOAD),
    },
    signers: parseAllowedSigners(`ann@example.com ${key.publicKey}`),
    now: Date.now(),
    namespace: "file",
  });
  expect(verdict.ok && verdict.keyType).toBe("ssh-ed25519");
});

Deno.test("verifySeal() refuses mutated signatures without throwing", async () => {
  await using k = await testKeys();
  const samples = await Promise.all(KEY_KINDS.map(async (kind) => {
    const key = k.keys[kind];
    const signature = await sshSign(key, "chant-wave", PAYLOAD);
    return JSON.stringify({
      approval: APPROVAL,
      seal: {
        principal: "ann@example.com",
        publicKey: key.publicKey,
        signature,
      },
      signers: `ann@example.com ${key.publicKey}\n`,
    });
  }));
  const failures = await runFuzz({
    target: "seal",
    seed: 2026,
    samples,
    iterations: 300,
  });
  expect(failures).toEqual([]);
});

const root = new URL("../..", import.meta.url).pathname;
const RUNTIME_APPROVAL = {
  name: "demo",
  gate: "demo-wave-3",
  planDigest: `sha256:${"d".repeat(64)}`,
  by: "ann@example.com",
  timestamp: "2026-11-30T11:00:00.000Z",
};

async function run(
  command: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(command, {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

Deno.test("verifySeal() verifies every key type under Node and in a bun-compiled executable", async (t) => {
  await using k = await testKeys();
  const cases = [];
  const want: string[] = [];
  for (const kind of KEY_KINDS) {
    const key = k.keys[kind];
    const signature = await sshSign(
      key,
      "chant-wave",
      approvalPayload(RUNTIME_APPROVAL),
    );
    const seal = {
      principal: "ann@example.com",
      publicKey: key.publicKey,
      signature,
    };
    const signers = `ann@example.com ${key.publicKey}\n`;
    cases.push({ approval: RUNTIME_APPROVAL, seal, signers });
    cases.push({
      approval: { ...RUNTIME_APPROVAL, by: "eve@example.com" },
      seal,
      signers,
    });
    const listed = await sshKeygen([
      "-l",
      "-E",
      "sha256",
      "-f",
      `${key.path}.pub`,
    ]);
    want.push(`ok ${listed.stdout.split(" ")[1]}`, "bad-signature");
  }
  const casesFile = join(k.dir, "cases.json");
  await Deno.writeTextFile(casesFile, JSON.stringify(cases));
  const bundle = join(k.dir, "probe.mjs");
  const bundled = await run(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--output",
    bundle,
    "tests/seal/_runtime_probe.ts",
  ]);
  expect(bundled.stderr).toBe("");
  expect(bundled.code).toBe(0);

  await t.step("node", async () => {
    const version = await run("node", ["--version"]);
    expect(version.stdout).toMatch(/^v\d+\./);
    const out = await run("node", [bundle, casesFile]);
    expect({ code: out.code, stderr: out.stderr }).toEqual({
      code: 0,
      stderr: "",
    });
    expect(JSON.parse(out.stdout)).toEqual(want);
  });

  await t.step(
    "bun build --compile (the shipped binary's runtime)",
    async () => {
      const executable = join(k.dir, "probe");
      const built = await run("npx", [
        "--yes",
        await bunOfCompileScript(),
        "build",
        "--compile",
        "--bytecode",
        "--format=esm",
        "--no-compile-autoload-dotenv",
        "--no-compile-autoload-bunfig",
        "--outfile",
        executable,
        bundle,
      ]);
      expect(built.code).toBe(0);
      const out = await run(executable, [casesFile]);
      expect({ code: out.code, stderr: out.stderr }).toEqual({
        code: 0,
        stderr: "",
      });
      expect(JSON.parse(out.stdout)).toEqual(want);
    },
  );
});

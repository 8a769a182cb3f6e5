// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  MAX_SIGNERS_FILE,
  parseAllowedSigners,
} from "../../src/seal/allowed_signers.ts";
import { runFuzz } from "./_fuzz.ts";

const ED =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9";
const EC =
  "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV9U2W72aAnqLbsvp1grY=";
const RSA_1024 =
  "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDFqH2Mr9oGiZtJXMRCBTDBKsgdNKkUNu/h9UoKEkLu0rMNJGBHCqwcaSj5NPhQbYmYbBCCOWfMVyCAFsmbRlgzMq45Ol1/EgDNazTt0P4NAUfy8gLz4KLlMdB8S0RN6bLW5q7cMXKmm9CPVlEwQmbFzhlHkC5ynUd/1KeC7vSVBQ==";

Deno.test("parseAllowedSigners() reads the lines ssh-keygen reads", async (t) => {
  await t.step("comments, blank lines, CRLF, leading white space", () => {
    const text = [
      "# the team",
      "",
      "   ",
      `  ann@example.com ${ED} ann's laptop\r`,
      `\t# indented comment`,
      `bob@example.com,*@ops.example.com ${EC}`,
    ].join("\n");
    const { signers, problems } = parseAllowedSigners(text);
    expect(problems).toEqual([]);
    expect(signers.map((s) => ({ line: s.line, type: s.key.type }))).toEqual([
      { line: 4, type: "ssh-ed25519" },
      { line: 6, type: "ecdsa-sha2-nistp256" },
    ]);
    expect(signers[1].principals).toEqual([
      { negated: false, pattern: "bob@example.com" },
      { negated: false, pattern: "*@ops.example.com" },
    ]);
  });
  await t.step("quoted principals with spaces, negation, normalisation", () => {
    const { signers, problems } = parseAllowedSigners(
      `"Ann Example@Example.COM, !Ｅve@example.com" ${ED}`,
    );
    expect(problems).toEqual([]);
    expect(signers[0].principals).toEqual([
      { negated: false, pattern: "ann example@example.com" },
      { negated: true, pattern: "eve@example.com" },
    ]);
  });
  await t.step("options, keywords in any case, quotes escaped", () => {
    const { signers, problems } = parseAllowedSigners(
      `ann@example.com Namespaces="chant-wave,\\"x y\\"",VALID-AFTER="20240101Z",valid-before="203001021504UTC" ${ED}`,
    );
    expect(problems).toEqual([]);
    expect(signers[0]).toMatchObject({
      namespaces: 'chant-wave,"x y"',
      validAfter: Date.UTC(2024, 0, 1) / 1000,
      validBefore: Date.UTC(2030, 0, 2, 15, 4) / 1000,
    });
  });
  await t.step("a time without Z is local time, as ssh-keygen reads it", () => {
    const { signers } = parseAllowedSigners(
      `ann@example.com valid-before="20300102150405" ${ED}`,
    );
    expect(signers[0].validBefore).toBe(
      new Date(2030, 0, 2, 15, 4, 5).getTime() / 1000,
    );
  });
});

Deno.test("parseAllowedSigners() reports each unusable line and keeps the others", async (t) => {
  const cases: { name: string; line: string; want: string }[] = [
    { name: "no key", line: "ann@example.com", want: "the line has no key" },
    {
      name: "a key without data",
      line: "ann@example.com ssh-ed25519",
      want: 'the key "ssh-ed25519" has no data',
    },
    {
      name: "an unknown option",
      line: `ann@example.com verify-required ${ED}`,
      want: 'unknown option "verify-required"',
    },
    {
      name: "a mistyped key type",
      line: `ann@example.com ssh-ed25591 ${ED.split(" ")[1]}`,
      want: 'unknown option "ssh-ed25591"',
    },
    {
      name: "an option given twice",
      line: `ann@example.com namespaces="a",NAMESPACES="b" ${ED}`,
      want: 'option "namespaces" is given twice',
    },
    {
      name: "an unquoted value",
      line: `ann@example.com valid-before=20300101 ${ED}`,
      want: 'option "valid-before" needs a quoted value, e.g. valid-before="…"',
    },
    {
      name: "an option without a value",
      line: `ann@example.com namespaces ${ED}`,
      want: 'option "namespaces" needs a value',
    },
    {
      name: "an unclosed quote",
      line: `ann@example.com namespaces="a ${ED}`,
      want: "a quote is not closed",
    },
    {
      name: "text after a quoted value",
      line: `ann@example.com namespaces="a"b ${ED}`,
      want: 'unexpected "b" after option "namespaces"',
    },
    {
      name: "a date that does not exist",
      line: `ann@example.com valid-before="20230230" ${ED}`,
      want:
        'option "valid-before" has an invalid time "20230230" (YYYYMMDD[HHMM[SS]][Z])',
    },
    {
      name: "a time of the wrong length",
      line: `ann@example.com valid-after="2023010112" ${ED}`,
      want:
        'option "valid-after" has an invalid time "2023010112" (YYYYMMDD[HHMM[SS]][Z])',
    },
    {
      name: "valid-before not after valid-after",
      line:
        `ann@example.com valid-after="20300101Z",valid-before="20300101Z" ${ED}`,
      want: '"valid-before" is not after "valid-after"',
    },
    {
      name: "cert-authority",
      line: `*@example.com cert-authority ${ED}`,
      want:
        "cert-authority is not supported (chant-wave verifies no certificates)",
    },
    {
      name: "an unsupported key type",
      line: "ann@example.com ssh-dss AAAAB3NzaC1kc3M=",
      want:
        'the key type "ssh-dss" is not supported (only ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa)',
    },
    {
      name: "a certificate key",
      line: "ann@example.com ssh-ed25519-cert-v01@openssh.com AAAA",
      want:
        'the key type "ssh-ed25519-cert-v01@openssh.com" is not supported (only ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa)',
    },
    {
      name: "bad base64",
      line: "ann@example.com ssh-ed25519 AAAA!AAA",
      want: "the public key is not valid base64",
    },
    {
      name: "a key whose data is of another type",
      line: `ann@example.com ssh-rsa ${ED.split(" ")[1]}`,
      want: 'the public key is named "ssh-rsa" but its data is "ssh-ed25519"',
    },
    {
      name: "a short RSA key",
      line: `ann@example.com ${RSA_1024}`,
      want: "the public key is an RSA key of 1024 bits (at least 2048)",
    },
    {
      name: "unterminated quoted principals",
      line: `"ann@example.com ${ED}`,
      want: "the quoted principals have no closing quote",
    },
    {
      name: "quoted principals followed by text",
      line: `"ann"@example.com ${ED}`,
      want: "the quoted principals are not followed by a space",
    },
    {
      name: "empty quoted principals",
      line: `"" ${ED}`,
      want: "the line has no principals",
    },
    {
      name: "a line too long",
      line: `ann@example.com ${ED} ${"x".repeat(16 * 1024)}`,
      want: "the line is longer than 16384 characters",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const text =
        `# first\nbob@example.com ${ED}\n${c.line}\nann@example.com ${EC}\n`;
      const { signers, problems } = parseAllowedSigners(text);
      expect(problems).toEqual([{ line: 3, message: c.want }]);
      expect(signers.map((s) => s.line)).toEqual([2, 4]);
    });
  }
  await t.step("a file over 1 MiB", () => {
    const text = `ann@example.com ${ED}\n`.repeat(
      MAX_SIGNERS_FILE / 50,
    );
    expect(parseAllowedSigners(text)).toEqual({
      signers: [],
      problems: [{
        line: 0,
        message: "the file is longer than 1048576 characters",
      }],
    });
  });
});

Deno.test("parseAllowedSigners() never throws on mutated files", async () => {
  const samples = [
    `# team\nann@example.com ${ED} laptop\n"bob smith@example.com,!x@y" namespaces="chant-wave,git",valid-after="20240101Z" ${EC}\n`,
    `*@example.com cert-authority,valid-before="203001011200" ${ED}\n\r\n  eve@example.com ${RSA_1024}`,
  ];
  expect(await runFuzz({ target: "signers", seed: 12, samples })).toEqual([]);
});

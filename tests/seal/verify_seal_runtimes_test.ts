// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { approvalPayload } from "../../src/seal/approval_payload.ts";
import { KEY_KINDS, sshKeygen, sshSign, testKeys } from "./_ssh_keygen.ts";

const root = new URL("../..", import.meta.url).pathname;
const APPROVAL = {
  name: "demo",
  gate: "demo-wave-3",
  planDigest: `sha256:${"d".repeat(64)}`,
  by: "ann@example.com",
  timestamp: "2026-11-30T11:00:00.000Z",
};

/** The bun that `scripts/compile.ts` builds the shipped binary with. */
async function bunOfCompileScript(): Promise<string> {
  const script = await Deno.readTextFile(join(root, "scripts/compile.ts"));
  return /const BUN = "(bun@[^"]+)"/.exec(script)![1];
}

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
      approvalPayload(APPROVAL),
    );
    const seal = {
      principal: "ann@example.com",
      publicKey: key.publicKey,
      signature,
    };
    const signers = `ann@example.com ${key.publicKey}\n`;
    cases.push({ approval: APPROVAL, seal, signers });
    cases.push({
      approval: { ...APPROVAL, by: "eve@example.com" },
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

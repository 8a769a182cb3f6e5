// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { InputError } from "../../src/errors.ts";
import { parseAllowedSigners } from "../../src/seal/allowed_signers.ts";
import { approvalPayload } from "../../src/seal/approval_payload.ts";
import {
  resolveSigningKey,
  signApproval,
} from "../../src/seal/sign_approval.ts";
import { verifySeal } from "../../src/seal/verify_seal.ts";
import { KEY_KINDS, sshVerify, testKeys } from "./_ssh_keygen.ts";
import { createGit } from "../../src/git/git.ts";

const APPROVAL = {
  name: "demo",
  gate: "demo-wave-1",
  planDigest: `sha256:${"c".repeat(64)}`,
  by: "ann@example.com",
  timestamp: "2026-11-30T10:00:00.000Z",
};
const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

async function inputError(promise: Promise<unknown>): Promise<InputError> {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).exitCode).toBe(2);
  return error as InputError;
}

Deno.test("signApproval() makes a seal that ssh-keygen and verifySeal accept", async (t) => {
  await using k = await testKeys();
  for (const kind of KEY_KINDS) {
    await t.step(kind, async () => {
      const key = k.keys[kind];
      const seal = await signApproval({
        approval: APPROVAL,
        principal: "ann@example.com",
        key: { kind: "file", path: key.path },
        env: ENV,
      });
      expect(seal.principal).toBe("ann@example.com");
      expect(seal.publicKey).toBe(key.publicKey);
      expect(seal.signature).toMatch(
        /^-----BEGIN SSH SIGNATURE-----\n[\s\S]+\n-----END SSH SIGNATURE-----$/,
      );
      const signers = `ann@example.com ${key.publicKey}\n`;
      expect(
        await sshVerify(k.dir, {
          signers,
          principal: "ann@example.com",
          signature: seal.signature,
          message: approvalPayload(APPROVAL),
        }),
      ).toBe(true);
      const verdict = await verifySeal({
        approval: APPROVAL,
        seal,
        signers: parseAllowedSigners(signers),
        now: Date.now(),
      });
      expect(verdict.ok).toBe(true);
    });
  }
});

Deno.test("signApproval() signs through ssh-agent for a literal key", async () => {
  await using k = await testKeys();
  const socket = join(k.dir, "agent.sock");
  const agent = new Deno.Command("ssh-agent", {
    args: ["-D", "-a", socket],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const deadline = Date.now() + 60_000;
    while (!(await Deno.stat(socket).then(() => true, () => false))) {
      if (Date.now() > deadline) throw new Error("ssh-agent did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const add = await new Deno.Command("ssh-add", {
      args: [k.keys.ed25519.path],
      env: { SSH_AUTH_SOCK: socket },
      stdout: "null",
      stderr: "piped",
    }).output();
    expect(add.code).toBe(0);
    await Deno.remove(k.keys.ed25519.path);
    const seal = await signApproval({
      approval: APPROVAL,
      principal: "ann@example.com",
      key: { kind: "literal", publicKey: k.keys.ed25519.publicKey },
      env: { ...ENV, SSH_AUTH_SOCK: socket },
    });
    const verdict = await verifySeal({
      approval: APPROVAL,
      seal,
      signers: parseAllowedSigners(
        `ann@example.com ${k.keys.ed25519.publicKey}`,
      ),
      now: Date.now(),
    });
    expect(verdict.ok).toBe(true);
  } finally {
    agent.kill("SIGTERM");
    await agent.status;
  }
});

Deno.test("signApproval() fails with one line when it cannot sign", async (t) => {
  await using k = await testKeys();
  const key = { kind: "file" as const, path: k.keys.ed25519.path };
  await t.step("ssh-keygen is not on PATH", async () => {
    const error = await inputError(signApproval({
      approval: APPROVAL,
      principal: "ann@example.com",
      key,
      env: { PATH: "/nonexistent" },
    }));
    expect(error.message).toBe(
      `cannot sign: "ssh-keygen" was not found (install OpenSSH's ssh-keygen, or check PATH)`,
    );
  });
  await t.step("the key file is not a key", async () => {
    const path = join(k.dir, "not_a_key");
    await Deno.writeTextFile(path, "garbage\n", { mode: 0o600 });
    const error = await inputError(signApproval({
      approval: APPROVAL,
      principal: "ann@example.com",
      key: { kind: "file", path },
      env: ENV,
    }));
    expect(error.message).toMatch(
      new RegExp(`^ssh-keygen could not sign with "${path}": \\S.*$`),
    );
  });
  await t.step("a literal key that no agent holds", async () => {
    const error = await inputError(signApproval({
      approval: APPROVAL,
      principal: "ann@example.com",
      key: { kind: "literal", publicKey: k.keys.ecdsa.publicKey },
      env: ENV,
    }));
    expect(error.message).toMatch(
      /^ssh-keygen could not sign with "ecdsa-sha2-nistp256 SHA256:[A-Za-z0-9+/]{43}": \S.*$/,
    );
  });
  await t.step("a literal key that is not a key", async () => {
    const error = await inputError(signApproval({
      approval: APPROVAL,
      principal: "ann@example.com",
      key: { kind: "literal", publicKey: "ssh-ed25519 AAAA" },
      env: ENV,
    }));
    expect(error.message).toBe(
      'cannot sign with the given key: the public key is cut short in "key type"',
    );
  });
});

Deno.test("signApproval() leaves no temporary file behind", async () => {
  await using k = await testKeys();
  const tmp = join(k.dir, "tmp");
  await Deno.mkdir(tmp);
  // TMPDIR is process-wide and test files run in parallel, so the signing runs
  // in a child process of its own with TMPDIR pointing at an empty directory.
  const module = new URL("../../src/seal/sign_approval.ts", import.meta.url);
  const script = `
    import { signApproval } from ${JSON.stringify(module.href)};
    const options = {
      approval: ${JSON.stringify(APPROVAL)},
      principal: "ann@example.com",
      env: ${JSON.stringify(ENV)},
    };
    await signApproval({ ...options, key: { kind: "file", path: ${
    JSON.stringify(k.keys.ed25519.path)
  } } });
    await signApproval({ ...options, key: { kind: "file", path: ${
    JSON.stringify(join(k.dir, "missing"))
  } } }).catch(() => undefined);
  `;
  const child = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      new URL("../../deno.json", import.meta.url).pathname,
      script,
    ],
    env: { TMPDIR: tmp },
    stdout: "piped",
    stderr: "piped",
  }).output();
  expect(new TextDecoder().decode(child.stderr)).toBe("");
  expect(child.code).toBe(0);
  expect(await Array.fromAsync(Deno.readDir(tmp))).toEqual([]);
});

const ED =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJjmAI8DheFelt7j698JJ61S43PVPPbBPMFT1K8WiFS9";

/** A temporary HOME with a key file and a global git config of `config`. */
async function home(config: string) {
  const dir = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "chant-signing-key-" }),
  );
  await Deno.mkdir(join(dir, ".ssh"));
  await Deno.writeTextFile(join(dir, ".ssh", "id_ed25519"), "a key\n");
  await Deno.writeTextFile(join(dir, ".gitconfig"), config);
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir };
  return {
    dir,
    io: { git: createGit({ env }), cwd: dir, env },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("resolveSigningKey() takes the given KEY", async (t) => {
  await using h = await home("");
  await t.step("a path relative to the working directory", async () => {
    expect(await resolveSigningKey(".ssh/id_ed25519", h.io)).toEqual({
      kind: "file",
      path: join(h.dir, ".ssh", "id_ed25519"),
    });
  });
  await t.step("a path under ~/", async () => {
    expect(await resolveSigningKey("~/.ssh/id_ed25519", { ...h.io, cwd: "/" }))
      .toEqual({ kind: "file", path: join(h.dir, ".ssh", "id_ed25519") });
  });
  await t.step("a literal key, with or without key::", async () => {
    for (const given of [`key::${ED}`, `${ED} comment`]) {
      expect(await resolveSigningKey(given, h.io)).toEqual({
        kind: "literal",
        publicKey: given.replace("key::", ""),
      });
    }
  });
  await t.step("a missing file is an input error", async () => {
    const error = await inputError(resolveSigningKey("nokey", h.io));
    expect(error.message).toBe(
      `cannot sign: key file "${join(h.dir, "nokey")}" does not exist`,
    );
  });
  await t.step("a FIFO is an input error, without blocking", async () => {
    const fifo = join(h.dir, "fifo");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    expect(made.code).toBe(0);
    const error = await inputError(resolveSigningKey(fifo, h.io));
    expect(error.message).toBe(`cannot sign: key file "${fifo}" is not a file`);
  });
  await t.step("a directory is an input error", async () => {
    const error = await inputError(resolveSigningKey(".ssh", h.io));
    expect(error.message).toBe(
      `cannot sign: key file "${join(h.dir, ".ssh")}" is not a file`,
    );
  });
});

Deno.test("resolveSigningKey() defaults to git's user.signingkey when gpg.format is ssh", async (t) => {
  await t.step("from the user's global git config", async () => {
    await using h = await home(
      "[gpg]\n\tformat = ssh\n[user]\n\tsigningkey = ~/.ssh/id_ed25519\n",
    );
    expect(await resolveSigningKey(undefined, h.io)).toEqual({
      kind: "file",
      path: join(h.dir, ".ssh", "id_ed25519"),
    });
  });
  await t.step("a literal key in the config", async () => {
    await using h = await home(
      `[gpg]\n\tformat = ssh\n[user]\n\tsigningkey = key::${ED}\n`,
    );
    expect(await resolveSigningKey(undefined, h.io)).toEqual({
      kind: "literal",
      publicKey: ED,
    });
  });
  const refusals = [
    {
      name: "gpg.format not set",
      config: "[user]\n\tsigningkey = ~/.ssh/id_ed25519\n",
      want:
        'cannot tell which key signs: git\'s gpg.format is not set, not "ssh"',
    },
    {
      name: "gpg.format openpgp",
      config: "[gpg]\n\tformat = openpgp\n[user]\n\tsigningkey = ABCD\n",
      want:
        'cannot tell which key signs: git\'s gpg.format is "openpgp", not "ssh"',
    },
    {
      name: "no user.signingkey",
      config: "[gpg]\n\tformat = ssh\n",
      want: "cannot tell which key signs: git's user.signingkey is not set",
    },
  ];
  for (const c of refusals) {
    await t.step(c.name, async () => {
      await using h = await home(c.config);
      const error = await inputError(resolveSigningKey(undefined, h.io));
      expect(error.message).toBe(c.want);
      expect(error.details).toEqual([
        "pass --sign KEY, or set git config gpg.format ssh and user.signingkey",
      ]);
    });
  }
});

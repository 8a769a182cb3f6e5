// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { InputError } from "../../src/errors.ts";
import { createGit } from "../../src/git/git.ts";
import { resolveSigningKey } from "../../src/seal/sign_approval.ts";

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

async function inputError(promise: Promise<unknown>): Promise<InputError> {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).exitCode).toBe(2);
  return error as InputError;
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

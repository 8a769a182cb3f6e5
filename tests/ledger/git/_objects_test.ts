// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createGit } from "../../../src/git/git.ts";
import { InputError } from "../../../src/errors.ts";
import { objectReader } from "../../../src/ledger/git/_objects.ts";
import { tempDir } from "../../_helpers/binary.ts";

/** Runs git in `cwd`; its standard output, trimmed. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("objectReader() names an object whose file was changed, and keeps what it checked", async (t) => {
  await using dir = await tempDir();
  await git(dir.path, "init", "-q");
  const write = () =>
    new Deno.Command("git", {
      args: ["hash-object", "-w", "--stdin"],
      cwd: dir.path,
      stdin: "piped",
      stdout: "piped",
    }).spawn();
  const hash = async (text: string) => {
    const child = write();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(text));
    await w.close();
    return new TextDecoder().decode((await child.output()).stdout).trim();
  };
  const kept = await hash('{"kept":true}\n');
  const later = await hash('{"later":true}\n');
  const forged = await hash('{"forged":true}\n');
  const file = (oid: string) =>
    `${dir.path}/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  const reader = objectReader(
    createGit({ env: Deno.env.toObject() }),
    dir.path,
  );
  expect((await reader.byId([kept])).get(kept)?.type).toBe("blob");
  // Both files now hold the forged blob's bytes.
  for (const oid of [kept, later]) {
    await Deno.chmod(file(oid), 0o644);
    await Deno.copyFile(file(forged), file(oid));
  }
  await t.step(
    "an object read before the change is read as it was",
    async () => {
      const blob = (await reader.byId([kept])).get(kept)!;
      expect(new TextDecoder().decode(blob.bytes)).toBe('{"kept":true}\n');
    },
  );
  await t.step(
    "one first read after it is refused, naming its file",
    async () => {
      const error = await reader.byId([later]).catch((e) => e);
      expect(error).toBeInstanceOf(InputError);
      expect(error.message).toBe(
        `the git ledger's blob ${later} in this clone does not hash to its name: the file "${
          file(later)
        }" was changed; nothing in the ledger counts from this clone (read it from a fresh clone)`,
      );
    },
  );
});

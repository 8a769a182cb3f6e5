// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import { createGit, GitError } from "../../src/git/git.ts";
import { readTreeFile } from "../../src/git/tree_file.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

Deno.test("readTreeFile() reads a file as committed and tells absent, links and submodules apart", async (t) => {
  await using repo = await tempRepo({
    "top.json": "top\n",
    "conf/waves.jsonc": "\uFEFF{ // nested\n}\n",
    "ab.json": "ab",
    "dir/inner.txt": "inner",
  });
  await Deno.symlink("conf", `${repo.path}/linked`);
  await Deno.symlink("top.json", `${repo.path}/link.json`);
  const first = await repo.commit("first");
  const second = await repo.commit("second", { "later.txt": "later" });
  await repo.git(
    "update-index",
    "--add",
    "--cacheinfo",
    `160000,${first},vendor`,
  );
  await repo.git("commit", "-q", "-m", "a submodule");
  const third = await repo.git("rev-parse", "HEAD");
  await repo.write("top.json", "working copy");
  const git = createGit({ env: { PATH, HOME: repo.home } });
  const read = (at: string, path: string) =>
    readTreeFile(git, repo.path, at, path);
  const cases = [
    { name: "a file at the top", at: first, path: "top.json", want: "top\n" },
    {
      name: "a nested file, BOM dropped",
      at: first,
      path: "conf/waves.jsonc",
      want: "{ // nested\n}\n",
    },
    { name: "a file added later", at: first, path: "later.txt" },
    {
      name: "the same file later",
      at: second,
      path: "later.txt",
      want: "later",
    },
    { name: "a directory", at: first, path: "dir" },
    { name: "a glob is literal", at: first, path: "a*.json" },
    { name: "a prefix is not a match", at: first, path: "top" },
    { name: "below a file", at: first, path: "top.json/x" },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const found = await read(c.at, c.path);
      if (c.want === undefined) expect(found).toEqual({ status: "absent" });
      else {
        expect(found.status).toBe("file");
        expect(found.status === "file" && found.text).toBe(c.want);
      }
    });
  }
  await t.step("a link at the path", async () => {
    expect(await read(first, "link.json")).toEqual({
      status: "link",
      at: "link.json",
    });
  });
  await t.step("a link on the way", async () => {
    expect(await read(first, "linked/waves.jsonc")).toEqual({
      status: "link",
      at: "linked",
    });
  });
  await t.step("a submodule on the way", async () => {
    expect(await read(third, "vendor/waves.jsonc")).toEqual({
      status: "submodule",
      at: "vendor",
    });
  });
  await t.step(
    "an unknown commit is an error, not an absent file",
    async () => {
      const unknown = "0123456789abcdef0123456789abcdef01234567";
      const error = await read(unknown, "top.json").catch((e) => e);
      expect(error).toBeInstanceOf(GitError);
      expect(error.stderr).toMatch(/not a tree object/);
    },
  );
});

Deno.test("readTreeFile() refuses an object whose file was rewritten (exit 2), from the commit down", async (t) => {
  /** Overwrites the loose object `victim` with the file of `forged`. */
  const swap = async (path: string, victim: string, forged: string) => {
    const file = (oid: string) =>
      `${path}/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
    await Deno.chmod(file(victim), 0o644);
    await Deno.copyFile(file(forged), file(victim));
  };
  for (const what of ["the file's blob", "a directory's tree"] as const) {
    await t.step(what, async () => {
      await using repo = await tempRepo({
        "conf/waves.json": '{"approval":"sealed"}\n',
      });
      const sha = await repo.commit("base");
      const git = createGit({ env: { PATH, HOME: repo.home } });
      const victim = await repo.git(
        "rev-parse",
        what === "a directory's tree"
          ? `${sha}:conf`
          : `${sha}:conf/waves.json`,
      );
      // A loose object of the same kind, with other content.
      const forged = what === "a directory's tree"
        ? await repo.git(
          "rev-parse",
          `${await repo.commit("other", {
            "conf/waves.json": '{"approval":"ledger"}\n',
          })}:conf`,
        )
        : (await repo.write("forged.json", '{"approval":"ledger"}\n'),
          await repo.git("hash-object", "-w", "forged.json"));
      await swap(repo.path, victim, forged);
      const error = await readTreeFile(git, repo.path, sha, "conf/waves.json")
        .catch((e) => e);
      expect(error).toBeInstanceOf(InputError);
      expect(error.exitCode).toBe(2);
      expect(error.message).toMatch(
        new RegExp(
          `^the (blob|tree) ${victim} in this clone does not hash to its name`,
        ),
      );
    });
  }
});

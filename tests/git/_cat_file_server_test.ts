// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  type CatFileKind,
  startCatFile,
} from "../../src/git/_cat_file_server.ts";
import { createGit, GitError } from "../../src/git/git.ts";
import { isolatedGitEnv } from "../../src/git/git_env.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const decoder = new TextDecoder();

Deno.test("a long-lived cat-file answers each call as a one-off cat-file would", async (t) => {
  const big = "x".repeat(3_000_000) + "\n";
  await using repo = await tempRepo({ "a.txt": "a\n", "big.txt": big });
  await repo.commit("first");
  const oneOff = createGit({ env: { PATH, HOME: repo.home } });
  const env = isolatedGitEnv({ PATH, HOME: repo.home }, {});
  const start = () => startCatFile({ gitPath: "git", cwd: repo.path, env });
  const same = async (asked: [CatFileKind, string[]][]) => {
    const server = start();
    try {
      // Asked at once: answered in order, each its own.
      const answers = await Promise.all(
        asked.map(([kind, names]) => server.ask(kind, names)),
      );
      for (const [i, [kind, names]] of asked.entries()) {
        const want = await oneOff.catFile(kind, names, repo.path);
        // Byte for byte (toEqual walks a large array slowly).
        expect(decoder.decode(answers[i])).toBe(decoder.decode(want));
      }
    } finally {
      await server.end();
    }
  };
  await t.step(
    "contents: files, a tree, a large blob, missing names",
    () =>
      same([
        ["batch", ["HEAD:a.txt", "HEAD^{tree}"]],
        ["batch", ["HEAD:big.txt"]],
        ["batch", ["HEAD:nothing", "not a name", "HEAD:a.txt"]],
      ]),
  );
  await t.step(
    "headers only",
    () =>
      same([
        ["batch-check", ["HEAD^{commit}", "HEAD:big.txt"]],
        ["batch-check", ["nope"]],
      ]),
  );
  await t.step(
    "both kinds from one process, interleaved",
    () =>
      same([
        ["batch-check", ["HEAD:big.txt", "nope"]],
        ["batch", ["HEAD:big.txt", "HEAD:nothing"]],
        ["batch-check", ["HEAD^{tree}"]],
        ["batch", ["HEAD:a.txt"]],
      ]),
  );
  await t.step(
    "a name with a newline, or an empty one, is refused, and asks nothing",
    async () => {
      const server = start();
      try {
        for (const name of ["HEAD\nHEAD", ""]) {
          const error = await server.ask("batch", [name]).catch((e) => e);
          expect(error).toBeInstanceOf(GitError);
        }
        expect(
          new TextDecoder().decode(await server.ask("batch", ["HEAD:a.txt"])),
        ).toMatch(/ blob 2\na\n\n$/);
      } finally {
        await server.end();
      }
    },
  );
  await t.step(
    "outside a repository the server is spent and calls fail",
    async () => {
      const outside = await Deno.makeTempDir();
      const server = startCatFile({ gitPath: "git", cwd: outside, env });
      try {
        const error = await server.ask("batch", ["HEAD"]).catch((e) => e);
        expect(error).toBeInstanceOf(GitError);
        expect(error.message).toMatch(/not a git repository/);
        expect(server.spent).toBe(true);
      } finally {
        await server.end();
        await Deno.remove(outside, { recursive: true });
      }
    },
  );
});

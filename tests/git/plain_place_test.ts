// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { plainPlace } from "../../src/git/plain_place.ts";
import { createGit } from "../../src/git/git.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

/** What git itself says, in the isolated environment chant-wave runs it in. */
async function gitSays(cwd: string) {
  const { code, stdout } = await new Deno.Command("git", {
    args: ["rev-parse", "--show-toplevel", "--show-prefix"],
    cwd,
    clearEnv: true,
    env: { PATH, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    stdout: "piped",
    stderr: "null",
  }).output();
  if (code !== 0) return undefined;
  const [top, prefix] = new TextDecoder().decode(stdout).split("\n");
  return { top, prefix };
}

function git(cwd: string, ...args: string[]) {
  return new Deno.Command("git", { args, cwd, stdout: "null", stderr: "null" })
    .output();
}

Deno.test("plainPlace() gives git's answer for the plain layout, and leaves every other layout to git", async (t) => {
  await using repo = await tempRepo({ "deep/er/file.txt": "x" });
  await repo.commit("one");
  const linked = join(repo.root, "linked");
  await Deno.symlink(join(repo.path, "deep"), linked);

  await t.step(
    "the plain layout: the file system answers as git does",
    async () => {
      for (
        const cwd of [
          repo.path,
          join(repo.path, "deep"),
          join(repo.path, "deep", "er"),
          join(linked, "er"),
        ]
      ) {
        const want = await gitSays(cwd);
        expect(want).toBeDefined();
        expect(await plainPlace(cwd)).toEqual(want);
      }
    },
  );

  await t.step(
    "outside a repository, inside .git, a bare repository: git's business",
    async () => {
      const bare = join(repo.root, "bare.git");
      await git(repo.root, "init", "-q", "--bare", bare);
      for (
        const cwd of [
          repo.root,
          join(repo.path, ".git"),
          join(repo.path, ".git", "refs"),
          bare,
        ]
      ) {
        expect(await plainPlace(cwd)).toBeUndefined();
      }
    },
  );

  await t.step(
    "a linked worktree and a submodule-like .git file: git's business",
    async () => {
      const tree = join(repo.root, "tree");
      await git(repo.path, "worktree", "add", "-q", tree);
      expect(await gitSays(tree)).toEqual({ top: tree, prefix: "" });
      expect(await plainPlace(tree)).toBeUndefined();
    },
  );

  await t.step(
    "a config that moves the work tree or includes another file: git's business",
    async () => {
      const config = join(repo.path, ".git", "config");
      const original = await Deno.readTextFile(config);
      try {
        for (
          const extra of [
            "[core]\n\tworktree = /elsewhere\n",
            "[include]\n\tpath = other\n",
            '[includeIf "gitdir:/x/"]\n\tpath = other\n',
            "[core]\n\tbare = true\n",
            "[core]\n\tBARE=yes\n",
          ]
        ) {
          await Deno.writeTextFile(config, original + extra);
          expect(await plainPlace(repo.path)).toBeUndefined();
        }
        await Deno.writeTextFile(
          config,
          original + "[core]\n\tBare = FALSE ; no\n",
        );
        expect(await plainPlace(repo.path)).toEqual(await gitSays(repo.path));
      } finally {
        await Deno.writeTextFile(config, original);
      }
    },
  );

  await t.step(
    "a .git folder that is not a repository, or whose HEAD is not one: git's business",
    async () => {
      const head = join(repo.path, ".git", "HEAD");
      const original = await Deno.readTextFile(head);
      try {
        await Deno.writeTextFile(head, "garbage\n");
        expect(await plainPlace(repo.path)).toBeUndefined();
      } finally {
        await Deno.writeTextFile(head, original);
      }
      const fake = join(repo.path, "deep", "fake");
      await Deno.mkdir(join(fake, ".git"), { recursive: true });
      expect(await plainPlace(fake)).toBeUndefined();
      expect(await gitSays(fake)).toEqual({
        top: repo.path,
        prefix: "deep/fake/",
      });
      await Deno.remove(fake, { recursive: true });
    },
  );

  await t.step(
    "the git seam asks git for what the file system leaves",
    async () => {
      const seam = createGit({ env: { PATH, HOME: repo.home } });
      const tree = join(repo.root, "tree");
      expect(await seam.topLevel(tree)).toBe(tree);
      expect(await seam.topLevel(join(repo.path, "deep"))).toBe(repo.path);
      expect(await seam.prefix(join(repo.path, "deep"))).toBe("deep/");
    },
  );
});

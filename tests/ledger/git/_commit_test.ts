// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createGit } from "../../../src/git/git.ts";
import { buildCommit, pruneTrees } from "../../../src/ledger/git/_commit.ts";
import { objectReader } from "../../../src/ledger/git/_objects.ts";
import { tempRepo } from "../../_helpers/temp_repo.ts";

const FILES = [
  "top1",
  "top2",
  "a/x",
  "a/y",
  "a/b/c",
  "a/b/d",
  "a/e/f",
  "g/h/i",
  "g/j",
];

const CASES: [string, string[]][] = [
  ["a file of a folder that keeps others", ["a/x"]],
  ["every file of a folder", ["a/b/c", "a/b/d"]],
  ["a folder and a file in it", ["a/b", "a/b/c"]],
  ["a file at the top and a folder's last files", ["top1", "g/h/i", "g/j"]],
  ["everything under a, folder by folder", [
    "a/x",
    "a/y",
    "a/b/c",
    "a/b/d",
    "a/e/f",
  ]],
  ["paths that are not there", ["nope/x", "a/zz", "a/x/under-a-file"]],
];

Deno.test("pruneTrees() leaves the tree that removing each path one by one leaves", async (t) => {
  await using repo = await tempRepo(
    Object.fromEntries(FILES.map((path) => [path, `${path}\n`])),
  );
  await repo.commit("files");
  const base = (await repo.git("rev-parse", "HEAD")).trim();
  const git = createGit({ env: repo.env });
  const cwd = repo.path;
  const treeOf = async (commit: string) =>
    (await repo.git("rev-parse", `${commit}^{tree}`)).trim();
  for (const [what, remove] of CASES) {
    await t.step(what, async () => {
      const build = (more: Parameters<typeof buildCommit>[2]) =>
        buildCommit(git, cwd, more);
      const plain = { base, files: [], message: "m", when: 0 };
      // fast-import's own removal, path by path, is the oracle.
      const oneByOne = await build({ ...plain, remove });
      const pruned = await pruneTrees(objectReader(git, cwd), base, remove);
      const rebuilt = await build({ ...plain, ...pruned });
      expect(await treeOf(rebuilt.commit)).toBe(
        await treeOf(oneByOne.commit),
      );
    });
  }
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createGit } from "../../src/git/git.ts";
import { mergeBase } from "../../src/git/git_plumbing.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

Deno.test("mergeBase() finds where two lines of history part, and none between unrelated ones", async () => {
  await using repo = await tempRepo({ "a.txt": "a" });
  const git = createGit({ env: repo.env });
  const root = await repo.commit("root");
  const main = await repo.commit("main", { "m.txt": "m" });
  await repo.git("checkout", "-q", "-b", "topic", root);
  const topic = await repo.commit("topic", { "t.txt": "t" });
  expect(await mergeBase(git, repo.path, main, topic)).toBe(root);
  expect(await mergeBase(git, repo.path, root, topic)).toBe(root);
  await repo.git("checkout", "-q", "--orphan", "other");
  const other = await repo.commit("unrelated", { "o.txt": "o" });
  expect(await mergeBase(git, repo.path, other, main)).toBeUndefined();
});

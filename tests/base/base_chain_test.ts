// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createGit } from "../../src/git/git.ts";
import { chainBounds } from "../../src/base/base_chain.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

/** A repository with a main line `a - b`, and helpers to grow other lines. */
async function lines() {
  const repo = await tempRepo({ "f.txt": "a" });
  const a = await repo.commit("a");
  const b = await repo.commit("b", { "f.txt": "b" });
  const git = createGit({ env: { PATH, HOME: repo.root } });
  const orphan = async (name: string) => {
    await repo.git("checkout", "-q", "--orphan", name);
    return await repo.commit(name, { "f.txt": name });
  };
  const merge = async (...parents: string[]) => {
    await repo.git(
      "merge",
      "-q",
      "--allow-unrelated-histories",
      "-s",
      "ours",
      "-m",
      "merge",
      ...parents,
    );
    return await repo.git("rev-parse", "HEAD");
  };
  const bounds = (head: string, decided: string[], tip?: string) =>
    chainBounds(git, repo.path, head, decided, tip ? { tip } : "all");
  return { repo, a, b, orphan, merge, bounds };
}

Deno.test("chainBounds() never takes a decision at HEAD itself", async () => {
  const { repo, a, b, bounds } = await lines();
  await using _ = repo;
  const found = await bounds(b, [a, b]);
  expect([...found.stops]).toEqual([a]);
  expect(found.newest).toEqual([a]);
});

Deno.test("chainBounds() finds a decision reachable only through a second parent", async (t) => {
  await t.step(
    "a merge whose first parent is an unrelated history",
    async () => {
      const { repo, b, orphan, merge, bounds } = await lines();
      await using _ = repo;
      await orphan("feat");
      const m = await merge(b);
      // The push run of M recorded a decision at M: it bounds nothing here.
      expect((await bounds(m, [b, m])).newest).toEqual([b]);
    },
  );
  await t.step(
    "an octopus merge of two unrelated histories and main",
    async () => {
      const { repo, b, orphan, merge, bounds } = await lines();
      await using _ = repo;
      const f2 = await orphan("two");
      await orphan("one");
      const m = await merge(f2, b);
      const parents = await repo.git("rev-list", "--parents", "-1", m);
      expect(parents.split(" ").length).toBe(4);
      expect((await bounds(m, [b])).newest).toEqual([b]);
    },
  );
});

Deno.test("chainBounds() reads the newest decision on each line, newest recorded first", async () => {
  const { repo, a, b, orphan, merge, bounds } = await lines();
  await using _ = repo;
  const f = await orphan("feat");
  const f2 = await repo.commit("feat 2", { "g.txt": "g" });
  const m = await merge(b);
  // a is b's ancestor: b stands for it. f and f2 are on the other line.
  const found = await bounds(m, [a, f2, b, f]);
  expect(found.newest).toEqual([b, f2]);
  expect(new Set(found.stops)).toEqual(new Set([a, b, f, f2]));
});

Deno.test("chainBounds() counts only what the default branch holds, in CI", async () => {
  const { repo, b, orphan, merge, bounds } = await lines();
  await using _ = repo;
  const f = await orphan("feat");
  const m = await merge(b);
  const head = await repo.commit("next", { "n.txt": "n" });
  // A record at the change's own commit f (the default branch is at b) could
  // otherwise stand for b, and M is not the default branch's yet.
  const found = await bounds(head, [b, f, m], b);
  expect([...found.stops]).toEqual([b]);
  expect(found.newest).toEqual([b]);
  const none = createGit({ env: { PATH, HOME: repo.root } });
  const counted = await chainBounds(none, repo.path, head, [b], "none");
  expect(counted).toEqual({ stops: new Set(), newest: [] });
});

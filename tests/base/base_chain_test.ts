// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createGit } from "../../src/git/git.ts";
import { baseChain, chainBounds } from "../../src/base/base_chain.ts";
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

Deno.test("baseChain() keeps what git log --first-parent -- <paths> keeps, in one walk", async (t) => {
  await using repo = await tempRepo({ "waves.json": "1", "f.txt": "a" });
  const root = await repo.commit("root");
  const unrelated = await repo.commit("f", { "f.txt": "b" });
  await repo.git("checkout", "-q", "-b", "side");
  await repo.commit("side", { "waves.json": "2" });
  await repo.git("checkout", "-q", "main");
  await repo.git("merge", "-q", "--no-ff", "-m", "brings waves", "side");
  const brings = await repo.git("rev-parse", "HEAD");
  await repo.git("checkout", "-q", "-b", "other");
  await repo.commit("other", { "waves.json": "3" });
  await repo.git("checkout", "-q", "main");
  await repo.git("merge", "-q", "-s", "ours", "-m", "keeps main", "other");
  const signers = await repo.commit("signers", { "s/allowed": "k" });
  await Deno.chmod(`${repo.path}/waves.json`, 0o755);
  const mode = await repo.commit("mode");
  const parent = await repo.commit("last", { "f.txt": "c" });
  // Settings of the clone that change what `git log` prints, set only now:
  // the plain log below is read without them.
  const paths = ["waves.json", "s/allowed"];
  const log = async (...range: string[]) =>
    (await repo.git(
      "log",
      "--first-parent",
      "--format=%H",
      ...range,
      "--",
      ...paths,
    )).split("\n").filter(Boolean);
  const all = await log(parent);
  expect(all).toEqual([mode, signers, brings, root]);
  const before = await log(parent, `^${brings}`);
  for (
    const [key, value] of [
      ["log.showRoot", "false"],
      ["log.diffMerges", "separate"],
      ["diff.renames", "copies"],
      ["diff.ignoreSubmodules", "all"],
      ["diff.relative", "true"],
      ["color.ui", "always"],
      ["core.abbrev", "7"],
    ]
  ) await repo.git("config", key, value);
  const git = createGit({ env: { PATH, HOME: repo.root } });
  const chain = (stops: string[]) =>
    baseChain({ git, top: repo.path, parent, paths, stops: new Set(stops) });
  await t.step(
    "to the root: the commits that changed a path, and the root, and that the chain merges",
    async () => {
      expect(await chain([])).toEqual({ commits: all, merges: true });
    },
  );
  await t.step("to a stop: those before it, and the stop", async () => {
    expect(await chain([brings, unrelated])).toEqual({
      commits: [...before, brings],
      stop: brings,
    });
  });
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { createGit, type GitRunOptions } from "../../src/git/git.ts";
import {
  countClutter,
  LOOSE_LIMIT,
  PACK_LIMIT,
  SMALL_PACK_BYTES,
  tidyObjects,
} from "../../src/git/tidy_objects.ts";
import { type TempRepo, tempRepo } from "../_helpers/temp_repo.ts";

/** Every object the repository holds, reachable or not, sorted. */
async function allObjects(repo: TempRepo): Promise<string[]> {
  const out = await repo.git(
    "cat-file",
    "--batch-all-objects",
    "--batch-check=%(objectname)",
  );
  return out.split("\n").sort();
}

/** `count` commits, each left in a small pack of its own (as fetches leave them). */
async function commitsInPacks(repo: TempRepo, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await repo.commit(`c${i}`, { [`f${i}.txt`]: `${i}\n` });
    await repo.git("repack", "-q");
  }
}

/** Runs git in `cwd` with the repo's environment, `input` on its stdin. */
async function gitWith(
  repo: TempRepo,
  cwd: string,
  args: string[],
  input: Uint8Array,
): Promise<void> {
  const child = new Deno.Command("git", {
    args,
    cwd,
    env: repo.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(input);
  await writer.close();
  expect((await child.output()).success).toBe(true);
}

/**
 * `count` blobs (`0\n`, `1\n`, …: the same ids every run) written loose, as a
 * small fetch leaves them: one pack made elsewhere, unpacked here.
 */
async function looseBlobs(repo: TempRepo, count: number): Promise<void> {
  const scratch = join(repo.root, "scratch.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", scratch);
  const blobs = Array.from(
    { length: count },
    (_, i) => `blob\ndata ${`${i}\n`.length}\n${i}\n\n`,
  ).join("");
  await gitWith(
    repo,
    scratch,
    ["-c", "fastimport.unpackLimit=0", "fast-import", "--quiet"],
    new TextEncoder().encode(blobs),
  );
  const pack = [...Deno.readDirSync(join(scratch, "objects", "pack"))]
    .find((e) => e.name.endsWith(".pack"))!.name;
  await gitWith(
    repo,
    repo.path,
    ["unpack-objects", "-q"],
    await Deno.readFile(join(scratch, "objects", "pack", pack)),
  );
}

Deno.test("tidyObjects() rolls many small packs into few, losing no object and moving no ref", async () => {
  await using repo = await tempRepo({ "README.md": "hello\n" });
  await repo.commit("base");
  await commitsInPacks(repo, PACK_LIMIT + 4);
  // Objects no ref reaches (a write whose push lost): kept too.
  await looseBlobs(repo, 3);
  const before = await allObjects(repo);
  const head = await repo.git("rev-parse", "HEAD");
  const gitDir = join(repo.path, ".git");
  expect((await countClutter(gitDir)).packs).toBe(PACK_LIMIT + 4);

  const tidied = await tidyObjects(createGit({ env: repo.env }), gitDir);

  expect(tidied.found.packs).toBe(PACK_LIMIT + 4);
  expect(tidied.repacked).toBe(true);
  expect((await countClutter(gitDir)).packs).toBeLessThanOrEqual(2);
  expect(await allObjects(repo)).toEqual(before);
  expect(await repo.git("rev-parse", "HEAD")).toBe(head);
  await repo.git("fsck", "--no-dangling", "--no-progress");
});

Deno.test("tidyObjects() packs a clone's many loose objects", async () => {
  await using repo = await tempRepo({ "README.md": "hello\n" });
  await repo.commit("base");
  await looseBlobs(repo, 2_000);
  const gitDir = join(repo.path, ".git");
  expect((await countClutter(gitDir)).loose).toBeGreaterThan(LOOSE_LIMIT);
  const before = await allObjects(repo);

  expect((await tidyObjects(createGit({ env: repo.env }), gitDir)).repacked)
    .toBe(true);

  expect(await countClutter(gitDir)).toEqual({ packs: 1, loose: 0 });
  expect(await allObjects(repo)).toEqual(before);
});

Deno.test("tidyObjects() leaves a tidy store alone: no git runs", async () => {
  await using repo = await tempRepo({ "README.md": "hello\n" });
  await repo.commit("base");
  await commitsInPacks(repo, 3);
  const gitDir = join(repo.path, ".git");
  const packs = [...Deno.readDirSync(join(gitDir, "objects", "pack"))]
    .map((e) => e.name).sort();
  const real = createGit({ env: repo.env });
  const ran: (readonly string[])[] = [];
  const git = {
    ...real,
    exec: (args: readonly string[], options: GitRunOptions) => (
      ran.push(args), real.exec(args, options)
    ),
  };

  expect((await tidyObjects(git, gitDir)).repacked).toBe(false);

  expect(ran).toEqual([]);
  expect(
    [...Deno.readDirSync(join(gitDir, "objects", "pack"))].map((e) => e.name)
      .sort(),
  ).toEqual(packs);
});

Deno.test("countClutter() does not count a large pack: it is no clutter to repack", async () => {
  await using repo = await tempRepo({ "README.md": "hello\n" });
  await repo.commit("base");
  // Random bytes do not compress: the pack holding them is large.
  const big = new Uint8Array(SMALL_PACK_BYTES + 65_536);
  for (let at = 0; at < big.length; at += 65_536) {
    crypto.getRandomValues(big.subarray(at, at + 65_536));
  }
  await Deno.writeFile(join(repo.path, "big.bin"), big);
  await repo.commit("big");
  await repo.git("repack", "-q");
  await commitsInPacks(repo, 2);
  const gitDir = join(repo.path, ".git");
  const packs = [...Deno.readDirSync(join(gitDir, "objects", "pack"))]
    .filter((e) => e.name.endsWith(".pack"));

  expect(packs).toHaveLength(3);
  expect((await countClutter(gitDir)).packs).toBe(2);
});

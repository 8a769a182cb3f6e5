// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import {
  parseSettings,
  refuseCheckoutGitFolder,
  refuseCheckoutSettings,
} from "../../src/git/repository_settings.ts";
import { createGit } from "../../src/git/git.ts";
import { InputError } from "../../src/errors.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

Deno.test("parseSettings() reads each setting's file, key and value", () => {
  expect(
    parseSettings(
      "file:.git/config\0remote.origin.url\n/r.git\0file:/etc/x\0core.bare\0" +
        "file:.git/config\0alias.two\nline one\nline two\0",
    ),
  ).toEqual([
    { origin: "file:.git/config", key: "remote.origin.url", value: "/r.git" },
    { origin: "file:/etc/x", key: "core.bare", value: "" },
    {
      origin: "file:.git/config",
      key: "alias.two",
      value: "line one\nline two",
    },
  ]);
});

Deno.test("refuseCheckoutSettings() refuses a file of any work tree outside the git folders, as named or through links", async (t) => {
  await using repo = await tempRepo({ "sub/shared": "x" });
  const other = join(repo.root, "other-tree");
  await Deno.mkdir(other);
  await Deno.writeTextFile(join(other, "shared"), "x");
  const layout = {
    top: repo.path,
    workTrees: [other],
    gitFolders: [join(repo.path, ".git")],
  };
  const listing = (file: string) => `file:${file}\0core.bare\nfalse\0`;
  const refused = async (file: string) =>
    await refuseCheckoutSettings(listing(file), layout).then(
      () => undefined,
      (e) => e,
    );
  await t.step(
    "the repository's own .git/config, or a file outside every work tree: fine",
    async () => {
      expect(await refused(".git/config")).toBeUndefined();
      expect(await refused(join(repo.root, "outside"))).toBeUndefined();
      await refuseCheckoutSettings(
        "command line:\0safe.directory\n/x\0",
        layout,
      );
    },
  );
  await t.step(
    "a file of the work tree, named from the top or through .git/..: refused",
    async () => {
      for (
        const file of [
          ".git/../sub/shared",
          "sub/shared",
          join(repo.path, "sub/shared"),
        ]
      ) {
        const error = await refused(file);
        expect(error).toBeInstanceOf(InputError);
        expect((error as Error).message).toMatch(
          /^the repository's git settings come from "sub\/shared", a file of the checkout/,
        );
      }
    },
  );
  await t.step(
    "an include of a work tree's file that does not exist yet: refused",
    async () => {
      const including = (value: string) =>
        refuseCheckoutSettings(
          `file:.git/config\0include.path\n${value}\0`,
          layout,
        ).then(() => undefined, (e) => e);
      expect(await including("../.later.cfg")).toBeInstanceOf(InputError);
      expect(await including(join(other, "later"))).toBeInstanceOf(InputError);
      expect(await including(join(repo.root, "later"))).toBeUndefined();
    },
  );
  await t.step(
    "a link of a work tree met midway, from .git or from outside: refused; a chain that stays outside: fine",
    async () => {
      const outside = join(repo.root, "runner.cfg");
      await Deno.writeTextFile(outside, "");
      // The change's link in the work tree, and a folder link beside it.
      await Deno.symlink(outside, join(repo.path, "cfg"));
      await Deno.symlink(repo.root, join(repo.path, "up"));
      const inGit = join(repo.path, ".git", "linked.cfg");
      await Deno.symlink("../cfg", inGit);
      const error = await refused(".git/linked.cfg");
      expect((error as Error).message).toMatch(/come from "cfg", a file/);
      const viaFolder = join(repo.path, ".git", "via-folder.cfg");
      await Deno.symlink("../up/runner.cfg", viaFolder);
      expect(await refused(".git/via-folder.cfg")).toBeInstanceOf(InputError);
      const fromOutside = join(repo.root, "chain.cfg");
      await Deno.symlink(join(repo.path, "cfg"), fromOutside);
      expect(await refused(fromOutside)).toBeInstanceOf(InputError);
      const runners = join(repo.path, ".git", "runner-link.cfg");
      await Deno.symlink(outside, runners);
      expect(await refused(".git/runner-link.cfg")).toBeUndefined();
    },
  );
  await t.step(
    "a file of another work tree of the repository: refused",
    async () => {
      expect(await refused(join(other, "shared"))).toBeInstanceOf(InputError);
    },
  );
  await t.step(
    "a link of the work tree that leads outside, and a link outside that leads in: refused",
    async () => {
      const outside = join(repo.root, "outside.cfg");
      await Deno.writeTextFile(outside, "");
      await Deno.symlink(outside, join(repo.path, "out-link"));
      expect(await refused("out-link")).toBeInstanceOf(InputError);
      const link = join(repo.root, "in-link");
      await Deno.symlink(join(repo.path, "sub", "shared"), link);
      expect(await refused(link)).toBeInstanceOf(InputError);
    },
  );
});

Deno.test("refuseCheckoutGitFolder() refuses a git folder of a work tree outside its .git, as named or through links", async (t) => {
  const root = await Deno.makeTempDir();
  try {
    const top = join(root, "repo");
    for (const dir of [".git/worktrees/x", "infra", "sub/.git"]) {
      await Deno.mkdir(join(top, dir), { recursive: true });
    }
    await Deno.mkdir(join(root, "outside"));
    await Deno.symlink(join(top, "infra"), join(root, "to-infra"));
    await Deno.symlink(join(top, ".git"), join(root, "to-git"));
    const refuse = (folder: string) => refuseCheckoutGitFolder([folder], [top]);

    await t.step(
      "in a .git folder, or outside every work tree: it stands",
      async () => {
        for (const folder of [".git", ".git/worktrees/x", "sub/.git"]) {
          await refuse(join(top, folder));
        }
        await refuse(join(root, "outside"));
        await refuse(join(root, "to-git"));
      },
    );

    await t.step(
      "a folder of the checkout: refused, as named or through a link",
      async () => {
        for (const folder of [join(top, "infra"), join(root, "to-infra")]) {
          const error = await refuse(folder).catch((e) => e);
          expect(error).toBeInstanceOf(InputError);
          expect(error.message).toContain(
            `"${join(top, "infra")}", a folder of the checkout`,
          );
        }
      },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("createGit() refuses a repository whose settings include a file of its work tree, whenever asked", async () => {
  await using repo = await tempRepo({
    ".gitconfig": "[core]\n\tautocrlf = false\n",
  });
  await repo.commit("one");
  const git = createGit({ env: { PATH, HOME: repo.home } });
  expect(await git.topLevel(repo.path)).toBe(repo.path);
  await repo.git("config", "include.path", "../.gitconfig");
  const fresh = createGit({ env: { PATH, HOME: repo.home } });
  for (let asked = 0; asked < 2; asked++) {
    await expect(fresh.topLevel(repo.path)).rejects.toThrow(
      /come from "\.gitconfig", a file of the checkout/,
    );
  }
  await repo.git("config", "include.path", join(repo.root, "elsewhere"));
  expect(
    await createGit({ env: { PATH, HOME: repo.home } }).topLevel(repo.path),
  )
    .toBe(repo.path);
});

// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import {
  checkoutOf,
  insideCheckout,
  programInCheckout,
  programOnPath,
  trustedPath,
} from "../../src/fs/program_path.ts";

Deno.test("checkoutOf() finds the directory that holds .git, from anywhere inside it", async (t) => {
  await using dir = await tempDir({ "repo/.git/HEAD": "x", "repo/a/b/f": "" });
  const real = await Deno.realPath(dir.path);
  await t.step("from a subdirectory", () => {
    expect(checkoutOf(`${dir.path}/repo/a/b`)).toBe(`${real}/repo`);
  });
  await t.step("a worktree's .git file counts", async () => {
    await Deno.mkdir(`${dir.path}/wt/sub`, { recursive: true });
    await Deno.writeTextFile(`${dir.path}/wt/.git`, "gitdir: elsewhere\n");
    expect(checkoutOf(`${dir.path}/wt/sub`)).toBe(`${real}/wt`);
  });
  await t.step("no .git above: the directory itself", async () => {
    await Deno.mkdir(`${dir.path}/plain`);
    // A temp dir may sit under a checkout; then that one is found instead.
    const found = checkoutOf(`${dir.path}/plain`);
    expect(insideCheckout(`${dir.path}/plain`, found)).toBe(true);
  });
});

Deno.test("trustedPath() and programOnPath() leave out the checkout's directories", async (t) => {
  await using dir = await tempDir({
    "repo/.git/HEAD": "x",
    "repo/.chant/bin/git": "#!/bin/sh\n",
    "tools/git": "#!/bin/sh\n",
    "tools/plain": "not executable",
  });
  await Deno.chmod(`${dir.path}/repo/.chant/bin/git`, 0o755);
  await Deno.chmod(`${dir.path}/tools/git`, 0o755);
  await Deno.mkdir(`${dir.path}/links`);
  await Deno.symlink(`${dir.path}/repo/.chant/bin`, `${dir.path}/links/bin`);
  const checkout = checkoutOf(`${dir.path}/repo`);
  await t.step(
    "relative entries and directories inside, also through a link",
    () => {
      expect(
        trustedPath(
          `${dir.path}/repo/.chant/bin:bin::${dir.path}/links/bin:${dir.path}/tools:/usr/bin`,
          checkout,
        ),
      ).toEqual([`${dir.path}/tools`, "/usr/bin"]);
    },
  );
  await t.step("the first executable file outside the checkout", () => {
    expect(
      programOnPath(
        "git",
        `${dir.path}/repo/.chant/bin:${dir.path}/tools`,
        checkout,
      ),
    ).toBe(`${dir.path}/tools/git`);
    expect(programOnPath("plain", `${dir.path}/tools`, checkout)).toBe(
      undefined,
    );
  });
  await t.step(
    "a link outside that leads into the checkout is no program",
    async () => {
      await Deno.mkdir(`${dir.path}/more`);
      await Deno.symlink(
        `${dir.path}/repo/.chant/bin/git`,
        `${dir.path}/more/git`,
      );
      expect(programOnPath("git", `${dir.path}/more`, checkout)).toBe(
        undefined,
      );
    },
  );
});

Deno.test("programInCheckout() refuses a path into the checkout, never a name", async () => {
  await using dir = await tempDir({
    "repo/.git/HEAD": "x",
    "repo/bin/tofu": "",
  });
  const checkout = checkoutOf(`${dir.path}/repo`);
  expect(
    programInCheckout(
      "the program",
      "./bin/tofu",
      `${dir.path}/repo`,
      checkout,
    ),
  )
    .toBe(
      'the program "./bin/tofu" is inside the checkout, whose files the change chooses',
    );
  expect(programInCheckout("the program", "tofu", `${dir.path}/repo`, checkout))
    .toBe(undefined);
  expect(programInCheckout("the client", "/usr/bin/psql", "/", checkout))
    .toBe(undefined);
});

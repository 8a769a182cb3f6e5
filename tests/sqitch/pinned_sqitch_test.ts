// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { pinSqitch } from "../../src/sqitch/pinned_sqitch.ts";
import { projectFiles } from "../../src/sqitch/project_files.ts";

Deno.test("pinSqitch() writes the pinned configuration and sets how the server and psql read text", async (t) => {
  await using dir = await tempDir({
    "db/sqitch.conf": "[core]\n\tengine = pg\n",
  });
  await t.step(
    "with the job's own PGOPTIONS kept before chant-wave's",
    async () => {
      const pinned = await pinSqitch(
        projectFiles(`${dir.path}/db`),
        "/tmp/none",
        {
          PGOPTIONS: "-c work_mem=64MB",
          PATH:
            `${dir.path}/.chant/bin:bin:/usr/local/bin:${dir.path}:/usr/bin`,
        },
        dir.path,
      );
      if (typeof pinned === "string") throw new Error(pinned);
      const config = pinned.env.SQITCH_CONFIG;
      expect(pinned.env).toEqual({
        SQITCH_CONFIG: config,
        PGOPTIONS: "-c work_mem=64MB -c standard_conforming_strings=on",
        PGCLIENTENCODING: "UTF8",
        PATH: "/usr/local/bin:/usr/bin",
      });
      expect(await Deno.readTextFile(config)).toBe(
        '[core]\n\tengine = pg\n\n[core]\n\trevert_dir = "/tmp/none"\n\treworked_revert_dir = "/tmp/none"\n',
      );
      expect(pinned.config).toMatch(/^sha256:[0-9a-f]{64}$/);
      await pinned[Symbol.asyncDispose]();
      await expect(Deno.stat(config)).rejects.toThrow(Deno.errors.NotFound);
    },
  );
  await t.step("a project without sqitch.conf", async () => {
    await using pinned = await pinSqitch(
      projectFiles(`${dir.path}/none`),
      "/tmp/none",
      {},
      dir.path,
    ) as Exclude<Awaited<ReturnType<typeof pinSqitch>>, string>;
    expect([pinned.config, pinned.env.PGOPTIONS]).toEqual([
      null,
      "-c standard_conforming_strings=on",
    ]);
  });
});

Deno.test("pinSqitch() refuses a sqitch.conf whose value runs onto another line", async () => {
  await using dir = await tempDir({
    "db/sqitch.conf":
      '[core]\n\tengine = pg\n\tpager = "less\n[target \\"prod\\"]\n\turi = db:pg:app\n',
  });
  expect(
    await pinSqitch(projectFiles(`${dir.path}/db`), "/tmp/none", {}, dir.path),
  )
    .toBe(
      "the project's sqitch.conf has a value that runs onto another line (line 3: a quote left open or a \\n); chant-wave reads sqitch's configuration one line a key",
    );
});

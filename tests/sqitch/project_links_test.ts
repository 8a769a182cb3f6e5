// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { tempDir } from "../_helpers/binary.ts";
import { projectEscape } from "../../src/sqitch/project_links.ts";

Deno.test("projectEscape() keeps a sqitch project inside the checkout", async (t) => {
  await using dir = await tempDir({
    "repo/.git/HEAD": "x",
    "repo/db/sqitch.plan": "%project=t\n",
    "repo/db/deploy/a.sql": "SELECT 1;\n",
    "repo/other/b.sql": "SELECT 2;\n",
    "outside/evil.sql": "DELETE FROM t;\n",
  });
  const repo = await Deno.realPath(`${dir.path}/repo`);
  await t.step("a plain project, and links that stay in it", async () => {
    await Deno.symlink("a.sql", `${repo}/db/deploy/a2.sql`);
    await Deno.symlink("deploy", `${repo}/db/alias`);
    expect(await projectEscape(`${repo}/db`, repo)).toBe(undefined);
  });
  await t.step(
    "a script that links out of the project, even into the checkout",
    async () => {
      await Deno.symlink(
        `${dir.path}/outside/evil.sql`,
        `${repo}/db/deploy/evil.sql`,
      );
      expect(await projectEscape(`${repo}/db`, repo)).toBe(
        `the project holds deploy/evil.sql, a link leading out of it (to ${dir.path}/outside/evil.sql)`,
      );
      await Deno.remove(`${repo}/db/deploy/evil.sql`);
      await Deno.symlink("../../other/b.sql", `${repo}/db/deploy/b.sql`);
      expect(await projectEscape(`${repo}/db`, repo)).toBe(
        "the project holds deploy/b.sql, a link leading out of it (to ../../other/b.sql)",
      );
      await Deno.remove(`${repo}/db/deploy/b.sql`);
    },
  );
  await t.step("a project directory outside the checkout", async () => {
    expect(await projectEscape(`${dir.path}/outside`, repo)).toBe(
      `the project directory ${
        JSON.stringify(`${dir.path}/outside`)
      } leads outside the checkout`,
    );
    await Deno.symlink(`${dir.path}/outside`, `${repo}/linked`);
    expect(await projectEscape(`${repo}/linked`, repo)).toMatch(
      /^the project directory ".*\/linked" leads outside the checkout$/,
    );
  });
});

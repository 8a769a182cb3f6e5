// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { changePeople } from "../../src/base/change_people.ts";
import { createGit } from "../../src/git/git.ts";
import { tempRepo, TEST_USER } from "../_helpers/temp_repo.ts";

Deno.test("changePeople() lists the commits of base..head and their authors and committers", async (t) => {
  await using repo = await tempRepo({ "a": "1\n" });
  const git = createGit({
    env: { PATH: Deno.env.get("PATH"), HOME: repo.home },
  });
  const base = await repo.commit("base");
  const committed = await new Deno.Command("git", {
    args: [
      "commit",
      "-q",
      "--allow-empty",
      "--author",
      "Mallory <mal@example.com>",
      "-m",
      "by mallory, committed by eve",
    ],
    cwd: repo.path,
    env: {
      ...repo.env,
      GIT_COMMITTER_NAME: "Eve",
      GIT_COMMITTER_EMAIL: "eve@example.com",
    },
    clearEnv: true,
  }).output();
  expect(committed.success).toBe(true);
  const middle = await repo.git("rev-parse", "HEAD");
  const head = await repo.commit("by the test user");

  await t.step("every commit after base, both roles", async () => {
    const found = await changePeople(git, repo.path, { base, head });
    expect(found).toEqual({
      status: "known",
      people: [
        { who: TEST_USER.name, role: "author" },
        { who: TEST_USER.email, role: "author" },
        { who: TEST_USER.name, role: "committer" },
        { who: TEST_USER.email, role: "committer" },
        { who: "Mallory", role: "author" },
        { who: "mal@example.com", role: "author" },
        { who: "Eve", role: "committer" },
        { who: "eve@example.com", role: "committer" },
      ],
      commits: [head, middle.trim()],
    });
  });
  await t.step("an empty range has nobody", async () => {
    expect(await changePeople(git, repo.path, { base: head, head })).toEqual({
      status: "known",
      people: [],
      commits: [],
    });
  });
});
